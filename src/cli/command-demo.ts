/**
 * `veracite demo`: the main job on the embedded default, with nothing to set up. Indexes the SciFact
 * sample shipped in data/samples (no server, no network), runs example searches for real claims, scores
 * retrieval on the sample's claims and verifies two claims with the offline models.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Label } from '../verify/types.js';
import { packageRoot } from '../util/package-root.js';
import { printSearchResult } from './command-search.js';
import { printVerdict } from './command-verify.js';
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
      const [{ Veracite }, { scifactTask }, { runRetrievalEval }, { readSciFactClaims }] = await Promise.all([
        import('../app/veracite.js'),
        import('../eval/retrieval-data.js'),
        import('../eval/run-retrieval.js'),
        import('../eval/run-scifact.js'),
      ]);
      const corpus = join(SAMPLES, 'scifact', 'corpus.jsonl');
      const claims = join(SAMPLES, 'scifact', 'claims_dev.jsonl');
      await rm(flags.index, { recursive: true, force: true });
      const vc = await Veracite.open({ index: { dir: flags.index }, retrieval: { mode: 'bm25' } }, { create: true });
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
        console.log(`BM25 on ${result.nEvaluated} sample claims: nDCG@10 ${m['ndcg@10']?.toFixed(3)}, Recall@100 ${m['recall@100']?.toFixed(3)}, MRR ${m['mrr']?.toFixed(3)}`);

        // Claim verification with the offline default models (USE + the heads trained by this project).
        console.log('\nVerifying sample claims (retrieval, top-5 evidence, verdict), each beside its gold label:\n');
        const labelled = await readSciFactClaims(claims);
        for (const c of labelled.slice(1, 3)) {
          printVerdict(await vc.verify(c.claim));
          console.log(`  gold label (SciFact annotators): ${goldLabel(c.evidence)}\n`);
        }
        console.log(`\nNext: veracite verify "your claim" --index ${flags.index}   |   veracite search "..." --index ${flags.index}`);
      } finally {
        await vc.close();
      }
    });
}

/** SciFact's claim-level label: the label of its evidence sets, NOT ENOUGH INFO without evidence. */
function goldLabel(evidence: Record<string, { label: string }[]>): Label {
  const first = Object.values(evidence).flat()[0]?.label;
  return first === 'SUPPORT' ? 'SUPPORTS' : first === 'CONTRADICT' ? 'REFUTES' : 'NOT ENOUGH INFO';
}
