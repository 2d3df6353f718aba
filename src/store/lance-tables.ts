/**
 * LanceDB tables that survive a kill at any moment. A table's first `createTable` writes its data files
 * first and commits version 1 (a manifest under `_versions/`) last; a kill in between leaves a
 * `<name>.lance/` folder that LanceDB lists as a table but cannot open ("exists but could not be
 * loaded"), forever. Such a folder holds nothing committed, so readers treat the table as absent and the
 * writer (who holds the index's writer lock) deletes the folder before creating the table again.
 * A folder that has a committed manifest and still fails to open is real damage and is reported as such.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as lancedb from '@lancedb/lancedb';

export function tableDir(dir: string, name: string): string {
  return join(dir, `${name}.lance`);
}

/** Whether the table folder holds at least one committed version (a `_versions/*.manifest` file). */
export async function hasCommittedVersion(dir: string, name: string): Promise<boolean> {
  try {
    return (await readdir(join(tableDir(dir, name), '_versions'))).some((f) => f.endsWith('.manifest'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/** Whether a table folder exists whose first commit never finished (what a kill -9 in createTable leaves). */
export async function isUncommittedTable(dir: string, name: string, names: Iterable<string>): Promise<boolean> {
  return new Set(names).has(name) && !(await hasCommittedVersion(dir, name));
}

/** Opens `name` if it holds a committed version; undefined when absent or never committed. */
export async function openCommittedTable(db: lancedb.Connection, dir: string, name: string, names: Iterable<string>): Promise<lancedb.Table | undefined> {
  if (!new Set(names).has(name) || !(await hasCommittedVersion(dir, name))) return undefined;
  try {
    return await db.openTable(name);
  } catch (e) {
    throw new Error(
      `${tableDir(dir, name)}: committed table cannot be opened (${firstLine((e as Error).message)}); the index is damaged: rebuild it with "veracite index <paths> --index <new dir>"`,
      { cause: e },
    );
  }
}

/** Deletes a table folder that holds nothing committed. Only the writer-lock holder may call this. */
export async function removeUncommittedTable(dir: string, name: string): Promise<boolean> {
  if (await hasCommittedVersion(dir, name)) return false;
  await rm(tableDir(dir, name), { recursive: true, force: true });
  return true;
}

function firstLine(s: string): string {
  return s.split(/, \/|\n/)[0]!.slice(0, 300);
}
