/**
 * `veracite index <paths...>`: ingest corpus files into an index directory, with progress and a summary.
 */
import type { Command } from 'commander';
import { ingestProblem, type IngestSummary } from '../store/ingest.js';
import type { CorpusFormat } from '../corpus/types.js';
import { countRecords } from './count-records.js';
import { openApp } from './open-app.js';
import { addOptions, oneOf, positiveInt, type OptionPick } from './options.js';
import { count, snapshotText, vectorIndexText } from './format.js';
import { createProgress } from './progress.js';

const INDEX_OPTIONS: OptionPick = { index: ['index'], models: ['embedder', 'device'] };

export const FORMATS = ['auto', 'jsonl', 'scifact', 'fever', 'kilt', 'wice', 'folder'] as const;

interface IndexFlags extends Record<string, unknown> {
  format: CorpusFormat | 'auto';
  maxWords: number;
  batchSize: number;
  onError: 'skip' | 'stop';
  resume: boolean;
  quiet?: boolean;
  json?: boolean;
  dense?: boolean;
}

function printSummary(s: IngestSummary): void {
  const lines = [
    `${s.source} (${s.format})${s.resumedFrom ? ` resumed after ${s.resumedFrom} records` : ''}${s.interrupted ? ' INTERRUPTED (run again to resume)' : ''}`,
    `  ${count(s.documents, 'new document')}${s.replaced ? `, ${count(s.replaced, 'replaced document')} (same id again)` : ''}, ${count(s.passages, 'passage')}, ${count(s.sentences, 'sentence')} in ${s.seconds.toFixed(1)} s ` +
      `(${s.docsPerSecond.toFixed(0)} docs/s, ${s.passagesPerSecond.toFixed(0)} passages/s; search indexes ${s.indexSeconds.toFixed(1)} s${s.vectorIndex ? `; ${vectorIndexText(s.vectorIndex)}` : ''})`,
    `  skipped records: ${s.skipped}`,
    ...s.errors.map((e) => `    ${e}`),
  ];
  console.error(lines.join('\n'));
}

export function registerIndexCommand(program: Command): void {
  addOptions(program
    .command('index')
    .description('ingest corpus files (JSONL, SciFact, FEVER wiki-pages, KILT, WiCE, or a folder of txt/md/html) into an index')
    .argument('<paths...>', 'corpus files or folders')
    .option('--format <format>', `input format: ${FORMATS.join('|')}`, oneOf('--format', FORMATS), 'auto')
    .option('--max-words <n>', 'passage size in words', positiveInt('--max-words'), 100)
    .option('--batch-size <n>', 'documents per committed batch', positiveInt('--batch-size'), 2000)
    .option('--on-error <mode>', 'bad record: skip it (and count it) or stop', oneOf('--on-error', ['skip', 'stop'] as const), 'skip')
    .option('--no-resume', 'start over instead of resuming an interrupted ingest')
    .option('--dense', 'also embed passages with --embedder and store vectors (dense / hybrid search)')
    .option('--quiet', 'no progress output')
    .option('--json', 'print the summary as JSON on stdout'), INDEX_OPTIONS)
    .action(async (paths: string[], flags: IndexFlags) => {
      const vc = await openApp(flags, INDEX_OPTIONS, {
        create: true,
        lockOptions: { command: process.argv.slice(1).join(' '), onStale: (h) => console.error(`removed a stale writer lock left by pid ${h.pid} on ${h.host}`) },
      });
      const store = vc.requireStore();
      const indexDir = vc.settings.index.dir!;
      const controller = new AbortController();
      const onSigint = () => {
        if (controller.signal.aborted) process.exit(130);
        console.error('\nstopping after the batch in flight (Ctrl-C again to quit now)...');
        controller.abort();
      };
      process.on('SIGINT', onSigint);
      const summaries: IngestSummary[] = [];
      try {
        for (const path of paths) {
          const total = await countRecords(path, flags.format);
          const bar = createProgress(`index ${path}`, total, 'docs', { quiet: flags.quiet, rates: ['passages'] });
          let summary: IngestSummary;
          try {
            summary = await vc.ingest(path, {
              format: flags.format,
              maxWords: flags.maxWords,
              batchSize: flags.batchSize,
              onError: flags.onError,
              resume: flags.resume,
              signal: controller.signal,
              dense: !!flags.dense,
              onProgress: (p) => bar.update(p.records, { passages: p.passages }),
            });
          } finally {
            bar.stop();
          }
          summaries.push(summary);
          if (!flags.json) printSummary(summary);
          // Records read but nothing indexed (a wrong --format, an empty file): the run failed, say why.
          const problem = ingestProblem(summary);
          if (problem) {
            console.error(`veracite: ${problem}`);
            process.exitCode = 1;
          }
          if (summary.interrupted) break;
        }
        const stats = await store.stats();
        const snapshot = await store.snapshot();
        if (flags.json) console.log(JSON.stringify({ index: indexDir, snapshot, stats, sources: summaries }, null, 2));
        else console.error(`index ${indexDir}: ${count(stats.documents, 'document')}, ${count(stats.passages, 'passage')}, ${count(stats.sentences, 'sentence')}; ${snapshotText(snapshot)}`);
        if (summaries.some((s) => s.interrupted)) process.exitCode = 130;
      } finally {
        process.off('SIGINT', onSigint);
        const cache = await vc.embeddingCacheStats();
        if (cache) console.error(`embedding cache: ${cache.hits} hits, ${cache.misses} embedded`);
        await vc.close();
      }
    });
}
