/**
 * `veracite index <paths...>`: ingest corpus files into an index, with progress and a summary.
 * `veracite index --dense` with no paths: add vectors to an index built without them (resumable).
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { IngestSummary } from '../store/ingest.js';
import type { EmbedMissingSummary } from '../store/dense-backfill.js';
import type { Veracite } from '../app/veracite.js';
import type { CorpusFormat } from '../corpus/types.js';
import { countRecords } from './count-records.js';
import { openApp } from './open-app.js';
import { addOptions, nonNegativeInt, oneOf, positiveInt, type OptionPick } from './options.js';
import { count, snapshotText, vectorIndexText } from './format.js';
import { createProgress } from './progress.js';
import { EXIT, MissingInputError, UsageError } from '../util/exit-codes.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../corpus/page-budget.js';

/** MB, fractions allowed (a test sets a small budget), more than 0. */
function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number (got "${value}")`);
    return n;
  };
}

const INDEX_OPTIONS: OptionPick = { index: ['index'], models: ['embedder', 'device'] };

export const FORMATS = ['auto', 'jsonl', 'scifact', 'fever', 'kilt', 'wice', 'folder', 'mediawiki', 'cirrus'] as const;

/** Wikimedia dumps: their page count is not known before reading them, so progress estimates it from bytes. */
const DUMP_FORMATS: ReadonlySet<string> = new Set(['mediawiki', 'cirrus']);

interface IndexFlags extends Record<string, unknown> {
  format: CorpusFormat | 'auto';
  maxWords: number;
  batchSize: number;
  onError: 'skip' | 'stop';
  resume: boolean;
  quiet?: boolean;
  json?: boolean;
  dense?: boolean;
  lang?: string;
  update?: 'changes' | 'full';
  deletions?: string;
  indexFile?: string;
  readWorkers?: number;
  maxPageMb: number;
}

function printSummary(s: IngestSummary): void {
  const lines = [
    `${s.source} (${s.format})${s.resumedFrom ? ` resumed after ${s.resumedFrom} records` : ''}${s.interrupted ? ' INTERRUPTED (run again to resume)' : ''}`,
    `  ${count(s.documents, 'new document')}${s.replaced ? `, ${count(s.replaced, 'replaced document')} (same id again)` : ''}, ${count(s.passages, 'passage')}, ${count(s.sentences, 'sentence')} in ${s.seconds.toFixed(1)} s ` +
      `(${s.docsPerSecond.toFixed(0)} docs/s, ${s.passagesPerSecond.toFixed(0)} passages/s; search indexes ${s.indexSeconds.toFixed(1)} s${s.vectorIndex ? `; ${vectorIndexText(s.vectorIndex)}` : ''})`,
    `  skipped records: ${s.skipped}`,
    ...(s.redirects !== undefined ? [`  not indexed: ${count(s.redirects, 'redirect')}, ${count(s.disambiguations ?? 0, 'disambiguation page')}`] : []),
    ...(s.deleted !== undefined ? [`  removed: ${count(s.deleted, 'document')} (deleted pages, pages now redirects${s.format === 'mediawiki' || s.format === 'cirrus' ? ', pages a complete dump no longer holds' : ''})`] : []),
    ...s.errors.map((e) => `    ${e}`),
  ];
  console.error(lines.join('\n'));
}

export function registerIndexCommand(program: Command): void {
  addOptions(program
    .command('index')
    .description('ingest corpus files (JSONL, SciFact, FEVER wiki-pages, KILT, WiCE, or a folder of txt/md/html) into an index; with --dense and no files, add vectors to the passages of an existing index that have none')
    .argument('[paths...]', 'corpus files or folders (none with --dense: embed the existing index)')
    .option('--format <format>', `input format: ${FORMATS.join('|')}`, oneOf('--format', FORMATS), 'auto')
    .option('--max-words <n>', 'passage size in words', positiveInt('--max-words'), 100)
    .option('--batch-size <n>', 'documents per committed batch', positiveInt('--batch-size'), 2000)
    .option('--on-error <mode>', 'bad record: skip it (and count it) or stop', oneOf('--on-error', ['skip', 'stop'] as const), 'skip')
    .option('--no-resume', 'start over instead of resuming an interrupted ingest')
    .option('--dense', 'also embed passages with --embedder and store vectors (dense / hybrid search)')
    .option('--lang <code>', 'language of the text (en, de, fr...): the full-text analyzer follows it; Wikimedia dumps name their own')
    .option('--update <kind>', 'apply a Wikimedia dump to the index: changes (adds-changes file: pages replaced, pages now redirects removed) or full (a complete later dump: also removes the pages it no longer holds)', oneOf('--update', ['changes', 'full'] as const))
    .option('--deletions <file>', 'page titles to remove, one a line (with an adds-changes update)')
    .option('--index-file <file>', 'the index of a multistream .xml.bz2 dump (offset:page id:title lines), to read its streams in parallel; default: the "...-multistream-index.txt.bz2" beside the dump')
    .option('--read-workers <n>', 'threads decompressing and parsing a multistream dump\'s streams (default: cores - 1, at least 1; 0: read it on one thread)', nonNegativeInt('--read-workers'))
    .option('--max-page-mb <n>', "MediaWiki and CirrusSearch dumps: the most one page may take (its XML, or its document line), in MB; a larger page is not read but counted as a bad record naming it (skipped, or the stop with --on-error stop), so a damaged page or a decompression bomb cannot exhaust memory", positiveNumber('--max-page-mb'), DEFAULT_MAX_PAGE_BYTES / 1024 / 1024)
    .option('--quiet', 'no progress output')
    .option('--json', 'print the summary as JSON on stdout'), INDEX_OPTIONS)
    .action(async (paths: string[], flags: IndexFlags) => {
      if (paths.length === 0 && !flags.dense) throw new UsageError('index: give the corpus files or folders to index, or --dense alone to add vectors to an existing index');
      const { ingestProblem } = await import('../store/ingest.js');
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
      let failedPaths = 0;
      try {
        if (paths.length === 0) {
          await backfillVectors(vc, indexDir, controller.signal, flags);
          return;
        }
        for (const path of paths) {
          const { detectFormat } = await import('../corpus/read-corpus.js');
          const isDump = DUMP_FORMATS.has(flags.format === 'auto' ? await detectFormat(path) : flags.format);
          const total = isDump ? 0 : await countRecords(path, flags.format);
          const bar = createProgress(`index ${path}`, total, isDump ? 'pages' : 'docs', { quiet: flags.quiet, rates: ['passages'] });
          // Dumps: the page total is estimated from the share of compressed bytes read.
          let bytes = { read: 0, total: 0 };
          const estimate = (records: number) => (isDump && bytes.read > 0 ? Math.max(records, Math.round((records * bytes.total) / bytes.read)) : undefined);
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
              ...(flags.lang ? { lang: flags.lang } : {}),
              ...(flags.update ? { update: flags.update } : {}),
              ...(flags.deletions ? { deletions: flags.deletions } : {}),
              ...(flags.indexFile ? { indexFile: flags.indexFile } : {}),
              ...(flags.readWorkers !== undefined ? { readWorkers: flags.readWorkers } : {}),
              maxPageBytes: Math.round(flags.maxPageMb * 1024 * 1024),
              ...(isDump ? { onBytes: (read: number, all: number) => (bytes = { read, total: all }) } : {}),
              onProgress: (p) => bar.update(p.records, { passages: p.passages }, estimate(p.records)),
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
            failedPaths++;
          }
          if (summary.interrupted) break;
        }
        const stats = await store.stats();
        const snapshot = await store.snapshot();
        if (flags.json) console.log(JSON.stringify({ index: indexDir, snapshot, stats, sources: summaries }, null, 2));
        else console.error(`index ${indexDir}: ${count(stats.documents, 'document')}, ${count(stats.passages, 'passage')}, ${count(stats.sentences, 'sentence')}; ${snapshotText(snapshot)}`);
        // Nothing indexed from any path is bad data (65); from some of them, a partial run (1).
        if (failedPaths) process.exitCode = failedPaths === summaries.length ? EXIT.DATA : EXIT.PARTIAL;
        if (summaries.some((s) => s.interrupted)) process.exitCode = EXIT.INTERRUPTED;
      } finally {
        process.off('SIGINT', onSigint);
        const cache = await vc.embeddingCacheStats();
        if (cache) console.error(`embedding cache: ${cache.hits} hits, ${cache.misses} embedded`);
        await vc.close();
      }
    });
}

/** `index --dense` with no paths: embed the passages without vectors, with progress; Ctrl-C stops after the batch in flight. */
async function backfillVectors(vc: Veracite, indexDir: string, signal: AbortSignal, flags: IndexFlags): Promise<void> {
  const store = vc.requireStore();
  const before = await store.stats();
  if (before.documents === 0) throw new MissingInputError(`index --dense: ${indexDir} holds no documents; index corpus files first (veracite index <files> --index ${indexDir})`);
  const counts = await store.vectorCounts();
  const { embedder, plan, recordedName } = await vc.vectorPlan();
  const missing = plan === 'reembed-all' ? counts.total : counts.total - counts.withVector;
  if (plan === 'reembed-all' && !flags.json) {
    console.error(
      `index ${indexDir}: re-embedding all ${count(counts.total, 'passage')} with ${embedder.info.id} (its vectors were made by ${recordedName ?? 'another model'}); ` +
        'until this finishes, dense search finds only the passages re-embedded so far (Ctrl-C stops after the batch in flight; run again to resume)',
    );
  }
  const bar = createProgress(`embed ${indexDir}`, missing, 'passages', { quiet: flags.quiet || missing === 0 });
  let summary: EmbedMissingSummary;
  try {
    summary = await vc.embedMissing({ signal, onProgress: (p) => bar.update(p.embedded) });
  } finally {
    bar.stop();
  }
  const rate = summary.seconds > 0 ? summary.embedded / summary.seconds : 0;
  if (flags.json) console.log(JSON.stringify({ index: indexDir, snapshot: await store.snapshot(), ...summary }, null, 2));
  else {
    console.error(
      `index ${indexDir}: embedded ${count(summary.embedded, 'passage')} in ${summary.seconds.toFixed(1)} s (${rate.toFixed(0)} passages/s); ${count(summary.alreadyEmbedded, 'passage')} already had vectors` +
        (summary.interrupted ? '; INTERRUPTED (run again to resume)' : summary.vectorIndex ? `; ${vectorIndexText(summary.vectorIndex)}` : ''),
    );
  }
  if (summary.interrupted) process.exitCode = 130;
}
