/**
 * Crash-safe files: write a temporary file, fsync it, rename it over the target, fsync the
 * directory. A kill or power loss at any point leaves the old file or the new one, never a mix, and a
 * file we reported as saved survives.
 */
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let counter = 0;

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value));
}

export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } catch (e) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await fh.close();
  await rename(tmp, path);
  await fsyncDir(dirname(path));
}

export function isTempFile(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}
