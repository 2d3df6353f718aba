/**
 * The store's own small JSON manifest: store id, creation settings and ingest checkpoints. Written
 * atomically (temp file + rename) so a kill at any moment leaves either the old or the new manifest.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MissingIndexError } from './missing-index.js';
import type { IngestCheckpoint } from './types.js';

export interface Manifest {
  format: 1;
  storeId: string;
  createdAt: string;
  /** Settings that must stay the same for the life of the store (recorded in provenance). */
  settings: Record<string, unknown>;
  checkpoints: Record<string, IngestCheckpoint>;
}

export const MANIFEST_FILE = 'veracite.json';

export async function loadManifest(dir: string): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // --index given a file (a corpus, say): an index is a folder, and the message says which one to give.
    if (code === 'ENOTDIR') throw new MissingIndexError(dir, `${dir} is a file, not an index folder: give --index the folder "veracite index" built (e.g. .veracite/demo); to index this file, run "veracite index ${dir} --index <folder>"`);
    throw e;
  }
  try {
    const m = JSON.parse(text) as Manifest;
    if (m.format !== 1 || typeof m.storeId !== 'string') throw new Error('unknown manifest format');
    m.checkpoints ??= {};
    return m;
  } catch (e) {
    throw new Error(`${join(dir, MANIFEST_FILE)}: not a veracite index manifest (${(e as Error).message})`);
  }
}

export function newManifest(settings: Record<string, unknown>): Manifest {
  return { format: 1, storeId: randomUUID().slice(0, 8), createdAt: new Date().toISOString(), settings, checkpoints: {} };
}

export async function saveManifest(dir: string, m: Manifest): Promise<void> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, MANIFEST_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(m, null, 2));
  await rename(tmp, path);
}
