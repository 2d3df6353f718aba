/**
 * `veracite demo`: the main job on the embedded default, with nothing to set up. Indexes the SciFact
 * sample shipped in data/samples (no server, no network), runs example searches for real claims, scores
 * retrieval on the sample's claims and verifies two claims with the offline models.
 */
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { scifactTask } from '../eval/retrieval-data.js';
import { runRetrievalEval } from '../eval/run-retrieval.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { printSearchResult } from './command-search.js';
import { printVerdict } from './command-verify.js';
import { loadVerifierModels } from '../models/registry.js';
import { Retriever } from '../retrieve/retriever.js';
import { Verifier } from '../verify/verifier.js';
import { createProgress } from './progress.js';
import { countRecords } from './count-records.js';

/** The package root, from src/cli or dist/cli alike. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SAMPLES = join(PACKAGE_ROOT, 'data', 'samples');

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('index the shipped SciFact sample, run example searches and verify claims (no setup needed)')
    .option('--index <dir>', 'where to build the demo index', '.veracite/demo')
    .option('--quiet', 'no progress output')
    .action(async (flags: { index: string; quiet?: boolean }) => {
      const corpus = join(SAMPLES, 'scifact', 'corpus.jsonl');
      const claims = join(SAMPLES, 'scifact', 'claims_dev.jsonl');
      await rm(flags.index, { recursive: true, force: true });
      const store = await LanceStore.open(flags.index);
      try {
        console.log(`veracite demo: indexing ${corpus} into ${flags.index}`);
        const bar = createProgress('index', await countRecords(corpus), 'docs', { quiet: flags.quiet, rates: ['passages'] });
        const s = await ingestSource(store, corpus, { format: 'scifact', batchSize: 500, onProgress: (p) => bar.update(p.records, { passages: p.passages }) });
        bar.stop();
        console.log(`indexed ${s.documents} abstracts -> ${s.passages} passages, ${s.sentences} sentences in ${s.seconds.toFixed(1)} s (snapshot ${await store.snapshot()})\n`);

        const retriever = new Retriever(store, undefined);
        const task = await scifactTask(claims);
        for (const q of task.queries.slice(0, 3)) {
          printSearchResult(await retriever.search(q.text, { k: 3 }));
          const gold = [...(task.qrels.get(q.id)?.keys() ?? [])];
          console.log(`     cited abstract(s): ${gold.join(', ')}\n`);
        }
        const result = await runRetrievalEval({
          name: 'scifact-sample',
          queries: task.queries,
          qrels: task.qrels,
          k: 100,
          cutoffs: [1, 10, 100],
          search: async (q, k) => (await retriever.search(q.text, { k })).documents.map((d) => ({ docId: d.docId, score: d.score })),
        });
        const m = result.metrics;
        console.log(`BM25 on ${result.nEvaluated} sample claims: nDCG@10 ${m['ndcg@10']?.toFixed(3)}, Recall@100 ${m['recall@100']?.toFixed(3)}, MRR ${m['mrr']?.toFixed(3)}`);

        // Claim verification with the offline default models (USE + the heads trained by this project).
        const models = await loadVerifierModels();
        const verifier = new Verifier(store, retriever, models);
        console.log('\nVerifying sample claims (retrieval, top-5 evidence, verdict):\n');
        for (const q of task.queries.slice(1, 3)) printVerdict(await verifier.verify(q.text));
        console.log(`\nNext: veracite verify "your claim" --index ${flags.index}   |   veracite search "..." --index ${flags.index}`);
      } finally {
        await store.close();
      }
    });
}
