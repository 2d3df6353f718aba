/**
 * `veracite eval retrieval`: document-level nDCG@k, Recall@k, MRR, P@1 and SR@k of an index against a
 * task (built-in SciFact / WiCE, or BEIR-style queries + qrels files). Results are printed and saved as
 * JSON with provenance (snapshot, mode, settings).
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { beirTask, readQrels, readQueries, scifactTask, wiceTask, type EvalTask } from '../eval/retrieval-data.js';
import { runRetrievalEval, saveResult } from '../eval/run-retrieval.js';
import { searchBm25 } from '../retrieve/search-bm25.js';
import { LanceStore } from '../store/lancedb-store.js';
import { DEFAULT_INDEX, oneOf, positiveInt } from './options.js';
import { createProgress } from './progress.js';
import { SEARCH_MODES } from './command-search.js';

const TASKS = ['scifact', 'wice', 'beir', 'files'] as const;

const DEFAULT_FILES: Record<string, string> = {
  scifact: 'data/samples/scifact/claims_dev.jsonl',
  wice: 'data/samples/wice/retrieval_dev_queries.jsonl',
};

function cutoffList(value: string): number[] {
  const list = value.split(',').map((v) => Number(v.trim()));
  if (list.some((n) => !Number.isInteger(n) || n <= 0)) throw new InvalidArgumentError(`--cutoffs must be positive integers, e.g. 1,10,100 (got "${value}")`);
  return list;
}

interface EvalFlags {
  index: string;
  task: (typeof TASKS)[number];
  queries?: string;
  qrels?: string;
  dir?: string;
  k: number;
  cutoffs: number[];
  mode: string;
  out?: string;
  quiet?: boolean;
  json?: boolean;
}

async function loadTask(flags: EvalFlags): Promise<EvalTask> {
  switch (flags.task) {
    case 'scifact':
      return scifactTask(flags.queries ?? DEFAULT_FILES.scifact!);
    case 'wice':
      return wiceTask(flags.queries ?? DEFAULT_FILES.wice!);
    case 'beir':
      if (!flags.dir) throw new Error('--task beir needs --dir <BEIR dataset folder>');
      return beirTask(flags.dir);
    case 'files':
      if (!flags.queries || !flags.qrels) throw new Error('--task files needs --queries <file> and --qrels <file>');
      return { name: flags.queries, queries: await readQueries(flags.queries), qrels: await readQrels(flags.qrels) };
  }
}

export function registerEvalCommand(program: Command): void {
  const evalCmd = program.command('eval').description('evaluation runners');
  evalCmd
    .command('retrieval')
    .description('document-level retrieval metrics (nDCG@10, Recall@k, MRR, P@1, SR@k)')
    .option('--index <dir>', 'index directory', DEFAULT_INDEX)
    .option('--task <task>', `${TASKS.join('|')}`, oneOf('--task', TASKS), 'scifact')
    .option('--queries <file>', 'queries / claims file (default: the shipped sample for the task)')
    .option('--qrels <file>', 'qrels file (TSV query-id corpus-id score, or JSONL) for --task files')
    .option('--dir <dir>', 'BEIR dataset folder for --task beir')
    .option('-k, --k <n>', 'retrieval depth in documents', positiveInt('-k'), 100)
    .option('--cutoffs <list>', 'metric cutoffs', cutoffList, [1, 10, 100])
    .option('--mode <mode>', `retrieval mode: ${SEARCH_MODES.join('|')}`, oneOf('--mode', SEARCH_MODES), 'bm25')
    .option('--out <file>', 'save the result JSON here (default eval-results/<task>-<mode>.json)')
    .option('--quiet', 'no progress output')
    .option('--json', 'print the full result JSON')
    .action(async (flags: EvalFlags) => {
      const task = await loadTask(flags);
      const store = await LanceStore.open(flags.index, { create: false });
      try {
        const bar = createProgress(`eval ${task.name}`, task.queries.length, 'queries', { quiet: flags.quiet });
        const result = await runRetrievalEval({
          name: task.name,
          queries: task.queries,
          qrels: task.qrels,
          k: flags.k,
          cutoffs: flags.cutoffs.filter((c) => c <= flags.k),
          search: async (q, k) => (await searchBm25(store, q.text, { k })).documents.map((d) => ({ docId: d.docId, score: d.score })),
          onProgress: (done) => bar.update(done),
        });
        bar.stop();
        const provenance = { index: flags.index, snapshot: await store.snapshot(), engine: store.engine, mode: flags.mode, settings: store.settings };
        const full = { ...result, provenance };
        const out = flags.out ?? `eval-results/${flags.task}-${flags.mode}.json`;
        await saveResult(full, out);
        if (flags.json) console.log(JSON.stringify(full, null, 2));
        else {
          console.log(`${task.name}: ${result.nEvaluated} queries evaluated (${result.excludedNoRelevant.length} without relevant docs), mode ${flags.mode}`);
          for (const [m, v] of Object.entries(result.metrics)) console.log(`  ${m.padEnd(12)} ${v.toFixed(4)}`);
          console.log(`  ${result.timing.queriesPerSecond.toFixed(1)} queries/s; saved ${out}`);
        }
      } finally {
        await store.close();
      }
    });
}
