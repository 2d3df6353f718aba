/**
 * The files a reader will read for a source path, in reading order: used for progress totals and for the
 * ingest's resume fingerprint (a folder's own mtime does not change when a file inside it is edited).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listFiles } from './read-folder.js';
import { cirrusFiles } from './read-cirrus.js';
import { mediawikiFiles } from './read-mediawiki.js';
import { lineFiles, statOrThrow } from './read-lines.js';
import type { CorpusFormat } from './types.js';

export async function sourceFiles(path: string, format: CorpusFormat): Promise<string[]> {
  if (format === 'mediawiki') return mediawikiFiles(path);
  if (format === 'cirrus') return cirrusFiles(path);
  if (format !== 'folder') return lineFiles(path);
  const info = await statOrThrow(path);
  return info.isDirectory() ? (await listFiles(path)).map((rel) => join(path, rel)) : [path];
}

/** Size and mtime of every file of the source: any edit, addition or removal changes it. */
export async function sourceFingerprint(path: string, format: CorpusFormat): Promise<string> {
  const parts: string[] = [];
  for (const f of await sourceFiles(path, format)) {
    const s = await stat(f);
    parts.push(`${f}:${s.size}:${Math.floor(s.mtimeMs)}`);
  }
  const { createHash } = await import('node:crypto');
  return createHash('sha1').update(parts.join('\n')).digest('hex').slice(0, 16);
}
