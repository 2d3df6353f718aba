/**
 * A fast pre-pass that counts records (non-empty lines, or files of a folder) so progress can show an
 * ETA. It reads raw bytes without parsing, which costs a small fraction of the ingest itself.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

const TEXT_FILE = /\.(txt|md|markdown|html?)$/i;

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += await countFiles(join(dir, e.name));
    else if (TEXT_FILE.test(e.name)) n++;
  }
  return n;
}

export async function countRecords(path: string): Promise<number> {
  if ((await stat(path)).isDirectory()) return countFiles(path);
  let n = 0;
  let lineHasContent = false;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
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
