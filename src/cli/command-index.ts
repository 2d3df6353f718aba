/**
 * `veracite index <paths...>`: ingest corpus files into an index directory, with progress and a summary.
 */
import type { Command } from 'commander';
import { ingestSource, type IngestSummary } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import type { CorpusFormat } from '../corpus/types.js';
import { countRecords } from './count-records.js';
import { loadEmbedder } from '../models/registry.js';
import { EmbeddingCache } from '../store/embedding-cache.js';
import { DEFAULT_INDEX, oneOf, positiveInt } from './options.js';
import { createProgress } from './progress.js';

export const FORMATS = ['auto', 'jsonl', 'scifact', 'fever', 'kilt', 'wice', 'folder'] as const;

interface IndexFlags {
  index: string;
  format: CorpusFormat | 'auto';
  maxWords: number;
  batchSize: number;
  onError: 'skip' | 'stop';
  resume: boolean;
  quiet?: boolean;
  json?: boolean;
  dense?: boolean;
  embedder: string;
}

function printSummary(s: IngestSummary): void {
  const lines = [
    `${s.source} (${s.format})${s.resumedFrom ? ` resumed after ${s.resumedFrom} records` : ''}${s.interrupted ? ' INTERRUPTED (run again to resume)' : ''}`,
    `  ${s.documents} documents, ${s.passages} passages, ${s.sentences} sentences in ${s.seconds.toFixed(1)} s ` +
      `(${s.docsPerSecond.toFixed(0)} docs/s, ${s.passagesPerSecond.toFixed(0)} passages/s; indexes ${s.indexSeconds.toFixed(1)} s${s.vectorIndex ? `, vectors: ${s.vectorIndex}` : ''})`,
    `  skipped records: ${s.skipped}`,
    ...s.errors.map((e) => `    ${e}`),
  ];
  console.error(lines.join('\n'));
}

export function registerIndexCommand(program: Command): void {
  program
    .command('index')
    .description('ingest corpus files (JSONL, SciFact, FEVER wiki-pages, KILT, WiCE, or a folder of txt/md/html) into an index')
    .argument('<paths...>', 'corpus files or folders')
    .option('--index <dir>', 'index directory', DEFAULT_INDEX)
    .option('--format <format>', `input format: ${FORMATS.join('|')}`, oneOf('--format', FORMATS), 'auto')
    .option('--max-words <n>', 'passage size in words', positiveInt('--max-words'), 100)
    .option('--batch-size <n>', 'documents per committed batch', positiveInt('--batch-size'), 2000)
    .option('--on-error <mode>', 'bad record: skip it (and count it) or stop', oneOf('--on-error', ['skip', 'stop'] as const), 'skip')
    .option('--no-resume', 'start over instead of resuming an interrupted ingest')
    .option('--dense', 'also embed passages and store vectors (dense / hybrid search)')
    .option('--embedder <spec>', "embedder for --dense: 'use' (offline default) or an ONNX model folder / hub id", 'use')
    .option('--quiet', 'no progress output')
    .option('--json', 'print the summary as JSON on stdout')
    .action(async (paths: string[], flags: IndexFlags) => {
      const store = await LanceStore.open(flags.index);
      const embedder = flags.dense ? await loadEmbedder(flags.embedder) : undefined;
      const embeddingCache = embedder ? await EmbeddingCache.open(flags.index, embedder) : undefined;
      if (embedder) await store.setSetting('embedder', embedder.info);
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
            summary = await ingestSource(store, path, {
              format: flags.format,
              maxWords: flags.maxWords,
              batchSize: flags.batchSize,
              onError: flags.onError,
              resume: flags.resume,
              signal: controller.signal,
              embedder,
              embeddingCache,
              onProgress: (p) => bar.update(p.records, { passages: p.passages }),
            });
          } finally {
            bar.stop();
          }
          summaries.push(summary);
          if (!flags.json) printSummary(summary);
          if (summary.interrupted) break;
        }
        const stats = await store.stats();
        const snapshot = await store.snapshot();
        if (flags.json) console.log(JSON.stringify({ index: flags.index, snapshot, stats, sources: summaries }, null, 2));
        else console.error(`index ${flags.index}: ${stats.documents} documents, ${stats.passages} passages, ${stats.sentences} sentences; snapshot ${snapshot}`);
        if (summaries.some((s) => s.interrupted)) process.exitCode = 130;
      } finally {
        process.off('SIGINT', onSigint);
        if (embeddingCache) console.error(`embedding cache: ${embeddingCache.hits} hits, ${embeddingCache.misses} embedded`);
        embeddingCache?.close();
        await store.close();
      }
    });
}
