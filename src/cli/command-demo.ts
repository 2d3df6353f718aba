/**
 * `veracite demo`: the main job on the embedded default, with nothing to set up. Indexes the SciFact
 * sample shipped in data/samples (no server, no network), runs example searches for real claims, scores
 * retrieval on the sample's claims, then ends with what a newcomer can trust (issue 36): the verdicts'
 * agreement with gold over every sample claim and the sample audit's bands against their labels, as small
 * confusion tables, and three examples picked by a fixed rule (stated in the output), each beside its gold label.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Label } from '../verify/types.js';
import { packageRoot } from '../util/package-root.js';
import { printSearchResult } from './command-search.js';
import type { SetLabel } from '../eval/citation-set.js';
import { createProgress } from './progress.js';
import { countRecords } from './count-records.js';

export const SAMPLES = join(packageRoot(), 'data', 'samples');

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('index the shipped SciFact sample, run example searches and verify claims (no setup needed)')
    .option('--index <dir>', 'where to build the demo index', '.veracite/demo')
    .option('--quiet', 'no progress output')
    .action(async (flags: { index: string; quiet?: boolean }) => {
      // The pipeline and the evaluation load when the demo runs, not at start-up (issue 31).
      const [{ Veracite }, { scifactTask }, { runRetrievalEval }, { readSciFactClaims, runSciFactEval }, { loadArticleInput }, { scoreCitationSet }] = await Promise.all([
        import('../app/veracite.js'),
        import('../eval/retrieval-data.js'),
        import('../eval/run-retrieval.js'),
        import('../eval/run-scifact.js'),
        import('../audit/article-input.js'),
        import('../eval/citation-set.js'),
      ]);
      const corpus = join(SAMPLES, 'scifact', 'corpus.jsonl');
      const claims = join(SAMPLES, 'scifact', 'claims_dev.jsonl');
      await rm(flags.index, { recursive: true, force: true });
      // The saved pages of the sample audit (data/samples/audit/sources): audited at the end, offline.
      const vc = await Veracite.open({ index: { dir: flags.index }, retrieval: { mode: 'bm25' }, sources: { folder: join(SAMPLES, 'audit', 'sources') } }, { create: true });
      try {
        console.log(`veracite demo: indexing ${corpus} into ${flags.index}`);
        const bar = createProgress('index', await countRecords(corpus), 'docs', { quiet: flags.quiet, rates: ['passages'] });
        const s = await vc.ingest(corpus, { format: 'scifact', batchSize: 500, onProgress: (p) => bar.update(p.records, { passages: p.passages }) });
        bar.stop();
        console.log(`indexed ${s.documents} abstracts -> ${s.passages} passages, ${s.sentences} sentences in ${s.seconds.toFixed(1)} s (snapshot ${await vc.requireStore().snapshot()})\n`);

        const task = await scifactTask(claims);
        for (const q of task.queries.slice(0, 3)) {
          const r = await vc.search(q.text, { k: 3 });
          printSearchResult(r);
          const gold = [...(task.qrels.get(q.id)?.keys() ?? [])];
          const ranks = gold.map((id) => {
            const at = r.documents.findIndex((d) => d.docId === id);
            return `${id} (${at >= 0 ? `found at rank ${at + 1}` : 'not in the top 3'})`;
          });
          console.log(`     gold: the abstract SciFact's annotators cite for this claim: ${ranks.join(', ')}\n`);
        }
        const result = await runRetrievalEval({
          name: 'scifact-sample',
          queries: task.queries,
          qrels: task.qrels,
          k: 100,
          cutoffs: [1, 10, 100],
          search: async (q, k) => (await vc.search(q.text, { k })).documents.map((d) => ({ docId: d.docId, score: d.score })),
        });
        const m = result.metrics;
        console.log(`BM25 on ${result.nEvaluated} sample claims (setting: retrieval, each claim a query over the whole index; gold: the abstracts it cites): nDCG@10 ${m['ndcg@10']?.toFixed(3)}, Recall@100 ${m['recall@100']?.toFixed(3)}, MRR ${m['mrr']?.toFixed(3)}`);

        // What a newcomer can trust (issue 36): agreement with gold over every sample claim, the sample audit's
        // bands against their labels, then three examples picked by a fixed rule, each beside its gold label.
        const labelled = await readSciFactClaims(claims);
        const verifier = await vc.verifier();
        const vbar = createProgress('verify', labelled.length, 'claims', { quiet: flags.quiet });
        const oracle = await runSciFactEval(verifier, labelled, { setting: 'oracle', onProgress: (d) => vbar.update(d) });
        vbar.stop();
        const la = oracle.labelAccuracy!;
        console.log(`\nHow far to trust the verdicts: the ${labelled.length} sample claims, each against the abstract SciFact cites for it (${la.pairs} pairs), verdict against the annotators' label:`);
        // SciFact's own label names inside, the verdicts' names (SUPPORTS / REFUTES / NOT ENOUGH INFO) on screen.
        printConfusion(la.confusion, ['SUPPORT', 'CONTRADICT', 'NOT_ENOUGH_INFO'], ['SUPPORT', 'CONTRADICT', 'NOT_ENOUGH_INFO'], 'gold \\ verdict', VERDICT_NAMES);
        console.log(`  agreement ${Math.round(la.accuracy * la.pairs)} of ${la.pairs} (${(100 * la.accuracy).toFixed(0)}%; always answering ${VERDICT_NAMES[la.majorityLabel] ?? la.majorityLabel} would get ${(100 * la.majorityBaseline).toFixed(0)}%)`);
        // Which setting this figure is (issue 46 item 5): `verify --claims` on the same file retrieves instead.
        console.log(`  setting: oracle (each claim given the abstract it cites). "veracite verify --claims" on the same file is the open setting: it retrieves the evidence from the index, so it agrees less often and its confidences differ.`);

        const article = join(SAMPLES, 'audit', 'Breast_cancer_risk_factors.txt');
        const report = await vc.audit(await loadArticleInput(article));
        const labels = (await readFile(join(SAMPLES, 'audit', 'labels.jsonl'), 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as SetLabel);
        const score = scoreCitationSet(report.citations, labels);
        console.log(`\nThe sample audit (data/samples/audit: ${score.citations} labelled citations against their saved sources), band against the label:`);
        printConfusion(score.confusion, ['supported', 'partially_supported', 'not_supported'], ['supported', 'partly-supported', 'needs-review', 'not-supported'], 'label \\ band');
        console.log(`  bands right ${score.bandsRight} of ${score.citations}; not supported banded supported: ${score.notSupportedBandedSupported}; {{failed verification}} tags proposed on supported citations: ${score.tagsOnSupported}`);

        console.log('\nThree examples, picked by a fixed rule: the first sample claim of each gold label, in file order (oracle setting: against the abstract it cites):');
        for (const gold of ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'] as const) {
          const c = labelled.find((x) => goldLabel(x.evidence) === gold);
          if (!c) continue;
          const [v] = await verifier.verifyEachDocument(c.claim, c.cited_doc_ids.map(String));
          console.log(`  ${v ? `${v.label} (confidence ${v.confidence.toFixed(2)})` : 'no verdict'}, gold ${gold}${v?.label === gold ? '' : ' (wrong)'}: ${c.claim}`);
        }
        console.log(`\nNext: veracite verify "your claim" --index ${flags.index}   |   veracite search "..." --index ${flags.index}`);
      } finally {
        await vc.close();
      }
    });
}

/** SciFact's label names as the verdicts name them everywhere else. */
const VERDICT_NAMES: Record<string, string> = { SUPPORT: 'SUPPORTS', CONTRADICT: 'REFUTES', NOT_ENOUGH_INFO: 'NOT ENOUGH INFO' };

/** A small confusion table: one row per gold label, one column per answer; `names`: how a key is shown. */
function printConfusion(m: Record<string, Record<string, number>>, rows: readonly string[], cols: readonly string[], corner: string, names: Record<string, string> = {}): void {
  const name = (k: string) => names[k] ?? k;
  const w = Math.max(corner.length, ...rows.map((r) => name(r).length)) + 2;
  const cw = cols.map((c) => Math.max(name(c).length, 3) + 2);
  console.log(`  ${corner.padEnd(w)}${cols.map((c, i) => name(c).padStart(cw[i]!)).join('')}`);
  for (const r of rows) console.log(`  ${name(r).padEnd(w)}${cols.map((c, i) => String(m[r]?.[c] ?? 0).padStart(cw[i]!)).join('')}`);
}

/** SciFact's claim-level label: the label of its evidence sets, NOT ENOUGH INFO without evidence. */
function goldLabel(evidence: Record<string, { label: string }[]>): Label {
  const first = Object.values(evidence).flat()[0]?.label;
  return first === 'SUPPORT' ? 'SUPPORTS' : first === 'CONTRADICT' ? 'REFUTES' : 'NOT ENOUGH INFO';
}
