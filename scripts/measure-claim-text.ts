/**
 * Measures the two choices of AuditConfig.claimText ('sentence' vs 'prefix') on a labelled article with
 * `eval audit`'s runner: the same article, sources, labels, scorer and threshold, once verifying the whole
 * sentence and once SIDE's text before the marker. Prints and saves the figures.
 *
 *   node --import tsx scripts/measure-claim-text.ts --article A --sources DIR --labels L.jsonl \
 *       [--index DIR] [--scorer trained|lexical] [--calibration FILE] [--skip-unlabelled] [--out eval-results/claim-text-<name>.json]
 *
 * The flags are those `veracite audit` would raise with the same index and scorer (for the default models,
 * the support signal, models/calibration/wice-dev-support.json); --calibration FILE picks another flag
 * signal's file, e.g. models/calibration/wice-dev-ranker.json with --index for the source ranker's score.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { Veracite } from '../src/app/veracite.js';
import { loadArticleInput } from '../src/audit/article-input.js';
import { CitationAuditor } from '../src/audit/audit.js';
import type { ClaimText } from '../src/audit/types.js';
import { datasetName } from '../src/eval/dataset-name.js';
import { runAuditEval, type AuditEvalResult } from '../src/eval/run-audit-eval.js';

const { values: a } = parseArgs({
  options: {
    article: { type: 'string' },
    sources: { type: 'string' },
    labels: { type: 'string' },
    index: { type: 'string' },
    calibration: { type: 'string' },
    scorer: { type: 'string', default: 'trained' },
    'skip-unlabelled': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
if (!a.article || !a.sources || !a.labels) throw new Error('usage: --article A --sources DIR --labels L.jsonl [--index DIR] [--scorer trained|lexical] [--calibration FILE] [--skip-unlabelled] [--out F]');

const input = await loadArticleInput(a.article);
const name = datasetName(a.article);
// The audit as `veracite audit` assembles it (composition root), without suggestions: only flags are scored.
const vc = await Veracite.open({ index: { dir: a.index ?? null }, models: { scorer: a.scorer! }, sources: { folder: a.sources }, audit: { recommend: false, ...(a.calibration ? { calibration: a.calibration } : {}) } });
const results = {} as Record<ClaimText, AuditEvalResult>;
try {
  const pipeline = await vc.auditPipeline();
  for (const note of pipeline.notes) console.error(`note: ${note}`);
  for (const claimText of ['sentence', 'prefix'] as const) {
    const auditor = new CitationAuditor({ ...pipeline.deps, resolver: pipeline.resolver() }, { ...pipeline.auditor.config, claimText });
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
  await vc.close();
}
