/**
 * A fast pre-pass that counts records (non-empty lines of JSONL files, or files of a text folder) so
 * progress can show an ETA. It scans raw bytes without parsing, a small fraction of the ingest's cost.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { CorpusFormat } from '../corpus/types.js';

async function countLines(file: string): Promise<number> {
  let n = 0;
  let lineHasContent = false;
  const raw = createReadStream(file);
  const stream = file.toLowerCase().endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === 10) {
        if (lineHasContent) n++;
        lineHasContent = false;
      } else if (c !== 13 && c !== 32 && c !== 9) lineHasContent = true;
    }
  }
  return lineHasContent ? n + 1 : n;
}

export async function countRecords(path: string, format: CorpusFormat | 'auto' = 'auto'): Promise<number> {
  // The corpus readers load HTML parsing; only a command that reads a corpus needs them (issue 31).
  const [{ detectFormat }, { sourceFiles }] = await Promise.all([import('../corpus/read-corpus.js'), import('../corpus/source-files.js')]);
  const f = format === 'auto' ? await detectFormat(path) : format;
  const files = await sourceFiles(path, f);
  if (f === 'folder') return files.length;
  let n = 0;
  for (const file of files) n += await countLines(file);
  return n;
}
