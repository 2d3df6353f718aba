/**
 * `veracite eval retrieval`: document-level nDCG@k, Recall@k, MRR, P@1 and SR@k of an index against a
 * task (built-in SciFact / WiCE, or BEIR-style queries + qrels files). Results are printed and saved as
 * JSON with provenance (snapshot, mode, settings).
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { beirTask, evalQueryInput, readQrels, readQueries, scifactTask, wiceTask, type EvalTask } from '../eval/retrieval-data.js';
import { runRetrievalEval, saveResult } from '../eval/run-retrieval.js';
import { addOptions, oneOf, positiveInt } from './options.js';
import { withApp } from './open-app.js';
import { createProgress } from './progress.js';
import { DEFAULT_OPEN_DOCS, readSciFactData, runSciFactEval } from '../eval/run-scifact.js';
import { storeDocIds } from '../eval/doc-ids.js';
import { datasetName } from '../eval/dataset-name.js';
import { scoreTrecRun, TrecRunWriter } from '../eval/trec-run.js';
import { registerCitationEvals } from './command-calibrate.js';
import { registerEvalAuditCommand } from './command-eval-audit.js';
import { registerEvalReportCommand } from './command-eval-report.js';
import { registerEvalContrastCommand } from './command-eval-contrast.js';
import { registerEvalDomainsCommand } from './command-eval-domains.js';
import { readFeverData, runFeverEval } from '../eval/run-fever.js';
import { writeFile } from 'node:fs/promises';
import { saveJson, withJsonOutput } from './command-line.js';
import { SEARCH_OPTIONS } from './command-search.js';
import { VERIFY_OPTIONS } from './command-verify.js';
import { UsageError } from '../util/exit-codes.js';

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

interface EvalFlags extends Record<string, unknown> {
  name?: string;
  run?: string;
  task: (typeof TASKS)[number];
  queries?: string;
  qrels?: string;
  dir?: string;
  k: number;
  cutoffs: number[];
  out?: string;
  quiet?: boolean;
  json?: boolean;
}

async function loadTask(flags: EvalFlags): Promise<EvalTask> {
  switch (flags.task) {
    case 'scifact':
      return scifactTask(flags.queries ?? DEFAULT_FILES.scifact!, ...(flags.name ? [flags.name] : []));
    case 'wice':
      return wiceTask(flags.queries ?? DEFAULT_FILES.wice!, ...(flags.name ? [flags.name] : []));
    case 'beir':
      if (!flags.dir) throw new UsageError('--task beir needs --dir <BEIR dataset folder>');
      return beirTask(flags.dir);
    case 'files':
      if (!flags.queries || !flags.qrels) throw new UsageError('--task files needs --queries <file> and --qrels <file>');
      return { name: flags.name ?? datasetName(flags.queries), queries: await readQueries(flags.queries), qrels: await readQrels(flags.qrels) };
  }
}

/** `eval retrieval --run FILE --qrels FILE`: any system's run scored against qrels, as trec_eval orders it. */
async function scoreRunFile(flags: EvalFlags): Promise<void> {
  const result = await scoreTrecRun({ run: flags.run!, qrels: flags.qrels!, cutoffs: flags.cutoffs, ...(flags.name ? { name: flags.name } : {}) });
  const out = flags.out ?? `eval-results/run-${datasetName(flags.run!)}.json`;
  await saveJson(out, result);
  if (flags.json) return console.log(JSON.stringify(result, null, 2));
  console.log(`${flags.run} against ${flags.qrels}: ${result.nEvaluated} queries evaluated (${result.missingFromRun.length} judged queries missing from the run, scored 0; ${result.notInQrels.length} run queries not judged)`);
  for (const [m, v] of Object.entries(result.metrics)) console.log(`  ${m.padEnd(12)} ${v.toFixed(4)}`);
  console.log(`saved ${out}`);
}

export function registerEvalCommand(program: Command): void {
  const evalCmd = program.command('eval').description('evaluation runners');
  addOptions(evalCmd
    .command('retrieval')
    .description('document-level retrieval metrics (nDCG@10, Recall@k, MRR, P@1, SR@k)')
    .option('--task <task>', `${TASKS.join('|')}`, oneOf('--task', TASKS), 'scifact')
    .option('--queries <file>', 'queries / claims file (default: the shipped sample for the task)')
    .option('--qrels <file>', 'qrels file (TREC "qid 0 docid rel", BEIR TSV, or JSONL): for --task files, or to score --run')
    .option('--run <file>', 'TREC run file (qid Q0 docid rank score tag): written from this evaluation\'s rankings; with --qrels and no --queries, an existing run scored as it is (no index needed)')
    .option('--dir <dir>', 'BEIR dataset folder for --task beir')
    .option('-k, --k <n>', 'retrieval depth in documents', positiveInt('-k'), 100)
    .option('--cutoffs <list>', 'metric cutoffs', cutoffList, [1, 10, 100])
    .option('--name <name>', 'name of the data in the result (default: the queries file name)')
    .option('--out <file>', 'save the result JSON here (default eval-results/<task>-<mode>.json)')
    .option('--quiet', 'no progress output')
    .option('--json', 'print the full result JSON'), SEARCH_OPTIONS)
    .action(async (flags: EvalFlags) => {
      if (flags.run && flags.qrels && !flags.queries) return scoreRunFile(flags);
      const task = await loadTask(flags);
      await withApp(flags, SEARCH_OPTIONS, async (vc) => {
        const run = flags.run ? await TrecRunWriter.open(flags.run, `veracite-${vc.mode}`) : undefined;
        const store = vc.requireStore();
        const retriever = vc.retriever();
        const mode = vc.mode;
        const bar = createProgress(`eval ${task.name}`, task.queries.length, 'queries', { quiet: flags.quiet });
        const result = await runRetrievalEval({
          name: task.name,
          queries: task.queries,
          qrels: task.qrels,
          k: flags.k,
          cutoffs: flags.cutoffs.filter((c) => c <= flags.k),
          search: async (q, k) => {
            const hits = (await retriever.search(evalQueryInput(q), { k })).documents.map((d) => ({ docId: d.docId, score: d.score }));
            await run?.write({ queryId: q.id, hits });
            return hits;
          },
          // Every relevant document must be in the index: checked before the first search.
          docIds: storeDocIds(store),
          ...(flags.queries ? { data: flags.queries } : {}),
          onProgress: (done) => bar.update(done),
        }).catch(async (e: unknown) => {
          await run?.abort();
          throw e;
        });
        bar.stop();
        await run?.close();
        const provenance = { index: vc.settings.index.dir, snapshot: await store.snapshot(), engine: store.engine, mode, retriever: retriever.config, embedder: retriever.embedder?.info, settings: store.settings };
        const full = { ...result, provenance };
        const out = flags.out ?? `eval-results/${flags.task}-${mode}.json`;
        await saveResult(full, out);
        if (flags.json) console.log(JSON.stringify(full, null, 2));
        else {
          console.log(`${task.name}: ${result.nEvaluated} queries evaluated (${result.excludedNoRelevant.length} without relevant docs), mode ${mode}`);
          for (const [m, v] of Object.entries(result.metrics)) console.log(`  ${m.padEnd(12)} ${v.toFixed(4)}`);
          console.log(`  ${result.timing.queriesPerSecond.toFixed(1)} queries/s; saved ${out}`);
        }
      });
    });
  registerVerdictEvals(evalCmd);
  registerCitationEvals(evalCmd);
  registerEvalAuditCommand(evalCmd);
  registerEvalReportCommand(evalCmd);
  registerEvalContrastCommand(evalCmd);
  registerEvalDomainsCommand(evalCmd);
}

export function registerVerdictEvals(evalCmd: Command): void {
  addOptions(
    evalCmd
      .command('scifact')
      .description('SciFact abstract- and sentence-level P/R/F1 (official metrics), oracle and open settings')
      .option('--claims <file>', 'SciFact claims with labels', 'data/samples/scifact/claims_dev.jsonl')
      .option('--setting <s>', 'oracle|open|both', oneOf('--setting', ['oracle', 'open', 'both'] as const), 'both')
      .option('--open-docs <n>', `abstracts retrieved and labelled per claim in the open setting (chosen on SciFact train; VeriSci uses 3)`, positiveInt('--open-docs'), DEFAULT_OPEN_DOCS)
      .option('--limit <n>', 'first n claims only', positiveInt('--limit'))
      .option('--name <name>', 'name of the data in the result (default: the claims file name)')
      .option('--out <file>', 'result JSON', 'eval-results/scifact.json')
      .option('--json', 'print the result JSON on stdout (the summary goes to stderr)')
      .option('--quiet', 'no progress output'),
    VERIFY_OPTIONS,
  ).action(async (flags: { claims: string; setting: 'oracle' | 'open' | 'both'; openDocs: number; limit?: number; name?: string; out: string; json?: boolean; quiet?: boolean } & Record<string, unknown>) => {
    await withJsonOutput(flags.json, () => withApp(flags, VERIFY_OPTIONS, async (vc) => {
      // Every label and cited document checked before any verifying: one error lists all problems.
      const data = await readSciFactData(flags.claims, { ...(flags.name ? { name: flags.name } : {}), docIds: storeDocIds(vc.requireStore()), docIdsWhere: vc.settings.index.dir ?? '' });
      const claims = data.claims.slice(0, flags.limit);
      const retriever = vc.retriever();
      const verifier = await vc.verifier();
      const settings = flags.setting === 'both' ? (['oracle', 'open'] as const) : [flags.setting];
      const results: Record<string, unknown> = {};
      for (const setting of settings) {
        const bar = createProgress(`${data.name} ${setting}`, claims.length, 'claims', { quiet: flags.quiet });
        const r = await runSciFactEval(verifier, claims, { setting, retriever, openDocs: flags.openDocs, onProgress: (d) => bar.update(d) });
        bar.stop();
        results[setting] = r;
        const m = r.metrics;
        console.log(`${setting}: abstract label-only F1 ${m.abstract_label_only.f1.toFixed(3)} (P ${m.abstract_label_only.precision.toFixed(3)} R ${m.abstract_label_only.recall.toFixed(3)}), ` +
          `label+rationale F1 ${m.abstract_rationalized.f1.toFixed(3)}; sentence selection F1 ${m.sentence_selection.f1.toFixed(3)}, selection+label F1 ${m.sentence_label.f1.toFixed(3)}; ` +
          `${r.claimsPerSecond.toFixed(2)} claims/s, p50 ${r.latencyMs.p50.toFixed(0)} ms, p95 ${r.latencyMs.p95.toFixed(0)} ms`);
        if (r.labelAccuracy) console.log(`  oracle label accuracy ${(100 * r.labelAccuracy.accuracy).toFixed(1)}% vs majority (${r.labelAccuracy.majorityLabel}) ${(100 * r.labelAccuracy.majorityBaseline).toFixed(1)}% over ${r.labelAccuracy.pairs} (claim, abstract) pairs`);
      }
      const saved = { name: data.name, claims: flags.claims, nClaims: claims.length, labelCounts: data.labelCounts, relabelled: data.relabelled, droppedNeiEvidence: data.droppedNeiEvidence, results, provenance: await verifier.provenance() };
      await saveJson(flags.out, saved);
      console.log(`saved ${flags.out}`);
      return saved;
    }));
  });

  addOptions(
    evalCmd
      .command('fever')
      .description('FEVER score, label accuracy and evidence P/R/F1 (official scorer) against an index of FEVER wiki-pages')
      .option('--claims <file>', 'FEVER claims with gold labels and evidence', 'data/samples/fever/paper_dev.jsonl')
      .option('--limit <n>', 'first n claims only', positiveInt('--limit'))
      .option('--name <name>', 'name of the data in the result (default: the claims file name)')
      .option('--out <file>', 'result JSON', 'eval-results/fever.json')
      .option('--predictions <file>', 'also write predictions in the official submission format')
      .option('--json', 'print the result JSON on stdout (the summary goes to stderr)')
      .option('--quiet', 'no progress output'),
    VERIFY_OPTIONS,
  ).action(async (flags: { claims: string; limit?: number; name?: string; out: string; predictions?: string; json?: boolean; quiet?: boolean } & Record<string, unknown>) => {
    await withJsonOutput(flags.json, () => withApp(flags, VERIFY_OPTIONS, async (vc) => {
      const data = await readFeverData(flags.claims, { ...(flags.name ? { name: flags.name } : {}), ...(flags.limit ? { limit: flags.limit } : {}), docIds: storeDocIds(vc.requireStore()) });
      const claims = data.claims;
      const missing = data.evidencePages?.missing.length ?? 0;
      if (missing) console.error(`note: ${missing} gold evidence pages are not in the index (${data.evidencePages!.claimsWithoutIndexedEvidence} claims cannot be strictly correct)`);
      const verifier = await vc.verifier();
      const bar = createProgress('fever', claims.length, 'claims', { quiet: flags.quiet });
      const r = await runFeverEval(verifier, claims, (d) => bar.update(d));
      bar.stop();
      const s = r.score;
      console.log(`${data.name}: FEVER score ${s.strict_score.toFixed(4)}, label accuracy ${s.acc_score.toFixed(4)}, evidence P ${s.precision.toFixed(4)} R ${s.recall.toFixed(4)} F1 ${s.f1.toFixed(4)} over ${s.n} claims (${r.claimsPerSecond.toFixed(2)} claims/s)`);
      console.log(`  majority baseline (${r.majorityBaseline.label}): FEVER score ${r.majorityBaseline.score.strict_score.toFixed(4)}, label accuracy ${r.majorityBaseline.score.acc_score.toFixed(4)}`);
      const saved = { name: data.name, claims: flags.claims, labelCounts: data.labelCounts, relabelled: data.relabelled, evidencePages: data.evidencePages, score: s, majorityBaseline: r.majorityBaseline, claimsPerSecond: r.claimsPerSecond, provenance: await verifier.provenance() };
      await saveJson(flags.out, saved);
      if (flags.predictions) await writeFile(flags.predictions, r.predictions.map((p) => JSON.stringify(p)).join('\n') + '\n');
      console.log(`saved ${flags.out}`);
      return saved;
    }));
  });
}
