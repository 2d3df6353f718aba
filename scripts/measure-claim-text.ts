/**
 * Measures the two choices of AuditConfig.claimText ('sentence' vs 'prefix') on a labelled article with
 * `eval audit`'s runner: the same article, sources, labels, scorer and threshold, once verifying the whole
 * sentence and once SIDE's text before the marker. Prints and saves the figures.
 *
 *   node --import tsx scripts/measure-claim-text.ts --article A --sources DIR --labels L.jsonl \
 *       [--index DIR] [--scorer trained|lexical] [--skip-unlabelled] [--out eval-results/claim-text-<name>.json]
 *
 * Without --index the engine's calibration flags (models/calibration/wice-dev.json for the trained
 * engine); with an index, the source ranker and its calibration, as `veracite audit` does.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { CitationAuditor, DEFAULT_AUDIT_CONFIG } from '../src/audit/audit.js';
import { loadArticleInput } from '../src/audit/article-input.js';
import { findCalibration, flagRule, scoringHash } from '../src/audit/calibration.js';
import { loadRankerDeps } from '../src/audit/load-ranker.js';
import { loadAuditScorer } from '../src/audit/load-scorer.js';
import type { ClaimText } from '../src/audit/types.js';
import { datasetName } from '../src/eval/dataset-name.js';
import { runAuditEval, type AuditEvalResult } from '../src/eval/run-audit-eval.js';
import { SourceResolver } from '../src/sources/resolve-source.js';
import { SnapshotFolder } from '../src/sources/snapshot-folder.js';
import { LanceStore } from '../src/store/lancedb-store.js';

const { values: a } = parseArgs({
  options: {
    article: { type: 'string' },
    sources: { type: 'string' },
    labels: { type: 'string' },
    index: { type: 'string' },
    scorer: { type: 'string', default: 'trained' },
    'skip-unlabelled': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!a.article || !a.sources || !a.labels) throw new Error('usage: --article A --sources DIR --labels L.jsonl [--index DIR] [--scorer trained|lexical] [--skip-unlabelled] [--out F]');

const input = await loadArticleInput(a.article);
const name = datasetName(a.article);
const store = a.index ? await LanceStore.open(a.index, { create: false }) : undefined;
const loaded = await loadAuditScorer(a.scorer!);
const results: Record<ClaimText, AuditEvalResult> = {} as Record<ClaimText, AuditEvalResult>;
try {
  const ranked = store ? await loadRankerDeps(undefined, loaded, store, a.index) : { reason: 'no index' };
  const ranker = 'ranker' in ranked ? ranked.ranker.info : undefined;
  const cfg = DEFAULT_AUDIT_CONFIG;
  const calibration =
    (ranker && (await findCalibration(scoringHash(loaded.scorer.info, cfg.scoring, cfg.queryContext, ranker), undefined, false))) ??
    (await findCalibration(scoringHash(loaded.scorer.info, cfg.scoring, cfg.queryContext)));
  const flag = flagRule(calibration ? { calibration } : {}, { scorer: loaded.scorer.info, scoring: cfg.scoring, queryContext: cfg.queryContext, ...(ranker ? { ranker } : {}) });
  if ('reason' in flag) console.error(`note: ${flag.reason}`);
  const resolver = new SourceResolver({ snapshots: await SnapshotFolder.open(a.sources), ...(store ? { store } : {}) });
  for (const claimText of ['sentence', 'prefix'] as const) {
    const auditor = new CitationAuditor({ scorer: loaded.scorer, resolver, flag, ...('ranker' in ranked ? { ranker: ranked } : {}) }, { claimText, recommend: { ...cfg.recommend, enabled: false } });
    const t0 = performance.now();
    const { result } = await runAuditEval({ auditor, input, labels: a.labels, name, ...(a['skip-unlabelled'] ? { unlabelled: 'skip' as const } : {}) });
    results[claimText] = result;
    const s = (performance.now() - t0) / 1000;
    console.log(`${name}, claimText=${claimText}: ${result.n} labelled citations (${JSON.stringify(result.labelCounts)}), ${result.scored} scored, signal ${result.flagging.signal ?? 'engine'}, threshold ${result.flagging.threshold?.toFixed(4) ?? 'none'} (${s.toFixed(1)} s)`);
    for (const [d, r] of Object.entries(result.definitions)) {
      const t = r.atThreshold;
      console.log(`  ${d.padEnd(27)} flagged ${t?.flagged ?? '-'}, TP ${t?.truePositives ?? '-'}, precision ${t ? t.precision.toFixed(3) : '-'}, recall ${t ? t.recall.toFixed(3) : '-'} | ROC AUC ${r.metrics.rocAuc.toFixed(3)}, AP ${r.metrics.averagePrecision.toFixed(3)} (${r.positivesScored} positives scored)`);
    }
  }
  for (const b of results.sentence.baselines) {
    console.log(`  baseline ${b.name} (n ${b.n}): not_supported AUC ${b.metrics.not_supported.rocAuc.toFixed(3)}, +partial AUC ${b.metrics.not_or_partially_supported.rocAuc.toFixed(3)}`);
  }
  const diffs = results.sentence.citations
    .map((row, i) => ({ row, p: results.prefix.citations[i]! }))
    .filter(({ row, p }) => row.claimPrefix && row.signal !== undefined)
    .map(({ row, p }) => `  #${row.citation} ${row.label}: sentence ${row.signal!.toFixed(3)}${row.flagged ? ' FLAG' : ''} | prefix ${p.signal!.toFixed(3)}${p.flagged ? ' FLAG' : ''}  ${JSON.stringify(row.claimPrefix)}`);
  if (diffs.length) console.log(`mid-sentence citations:\n${diffs.join('\n')}`);
  const out = a.out ?? `eval-results/claim-text-${name}.json`;
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify({ command: `node --import tsx scripts/measure-claim-text.ts ${process.argv.slice(2).join(' ')}`, results }, null, 2) + '\n');
  console.log(`saved ${out}`);
} finally {
  await loaded.close();
  await store?.close();
}
