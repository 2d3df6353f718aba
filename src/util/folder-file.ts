/**
 * Files named by a folder or a manifest (`--sources` snapshot folders, corpus folders given to `index`), opened
 * as what they claim to be. Such a folder may come from someone else than the user (a shared snapshot, an
 * unpacked archive), and a lexical check on the name is not enough: an entry `leak.txt` may be a symlink to
 * /etc/passwd (a leak), to /dev/zero (memory grows until the machine dies), or a FIFO (the read never ends,
 * and a libuv thread is held for good). So an entry is
 *   1. resolved with realpath, as is the folder, and must stay inside the folder's real path;
 *   2. opened without following a last symlink (O_NOFOLLOW) and without blocking (O_NONBLOCK: a FIFO opens at
 *      once instead of waiting for a writer), and the *opened handle* is checked: fstat must say a regular
 *      file, and (Linux) the handle's own path, /proc/self/fd/N, must still be inside the folder, so a name
 *      swapped for a link between the check and the open (TOCTOU) is caught on what was really opened;
 *   3. read with a size cap checked before reading (fstat size) and while reading (a file that grows while it is
 *      read, or one whose size fstat does not tell, is refused once it passes the cap, never held whole).
 * Anything else is refused by name: which entry, why, and what to do. Nothing is thrown for a refused entry: the
 * caller reports it for that entry (one citation, one record) and goes on.
 */
import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';

/** Why an entry was not read. `missing`: no such file (or a link to nothing); the others are refusals. */
export type FolderFileProblem = 'missing' | 'outside' | 'not-regular' | 'too-large' | 'unreadable';

export type FolderFileRead =
  | { ok: true; bytes: Buffer; /** The file's real path. */ path: string }
  | { ok: false; problem: FolderFileProblem; /** One line: the entry, why, what to do. */ reason: string };

export interface FolderFileOptions {
  /** Bytes read at most; a larger file (or one that grows past it while read) is refused. */
  maxBytes: number;
  /** What the folder is, for messages ("snapshot folder", "corpus folder"). */
  folderName?: string;
  /** Where the cap is raised, for messages ("sources.maxBytes"). */
  capSetting?: string;
  /** The entry as messages name it (default: the entry). */
  name?: string;
}

const CHUNK = 64 * 1024;
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NOCTTY ?? 0);

/** A file's type in words, for a refusal ("a FIFO", "a character device"). */
function kindOf(s: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSymbolicLink(): boolean }): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function inside(root: string, path: string): boolean {
  return path.startsWith(root === sep ? root : root + sep);
}

function mib(n: number): string {
  return n >= 1024 * 1024 ? `${+(n / 1024 / 1024).toFixed(1)} MiB` : `${n} bytes`;
}

/**
 * Reads `entry` (a path relative to `folder`, as a manifest or a listing names it) under the rules above.
 * The folder itself must exist (a missing folder is the caller's error, thrown as is).
 */
export async function readFolderFile(folder: string, entry: string, opts: FolderFileOptions): Promise<FolderFileRead> {
  const where = opts.folderName ?? 'folder';
  const root = await realpath(folder);
  const shown = opts.name ?? entry;
  const refuse = (problem: FolderFileProblem, why: string, todo: string): FolderFileRead => ({ ok: false, problem, reason: `${shown}: refused: ${why}; ${todo}` });
  const outside = () => refuse('outside', `it resolves to a path outside the ${where} (a symbolic link or "..")`, `copy the file into the ${where} instead of linking to it`);
  // A name that leaves the folder is refused before anything is asked of the disk (whether it exists included).
  const lexical = resolve(folder, entry);
  if (!inside(resolve(folder), lexical) && !inside(root, lexical)) return outside();
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', reason: `${shown}: no such file in the ${where} (or a link to nothing)` };
    if (code === 'ELOOP') return refuse('outside', 'a loop of symbolic links', 'replace it with the file itself');
    return { ok: false, problem: 'unreadable', reason: `${shown}: cannot be read (${code ?? (e as Error).message})` };
  }
  if (!inside(root, real)) return outside();
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // O_NOFOLLOW: the last component became a link after realpath resolved it.
    if (code === 'ELOOP' || code === 'EMLINK') return outside();
    if (code === 'ENOENT') return { ok: false, problem: 'missing', reason: `${shown}: no such file in the ${where}` };
    if (code === 'ENXIO') return refuse('not-regular', 'a socket or a device, not a regular file', 'save the page as an ordinary file');
    if (code === 'EISDIR') return refuse('not-regular', 'a folder, not a file', 'name a file');
    return { ok: false, problem: 'unreadable', reason: `${shown}: cannot be read (${code ?? (e as Error).message})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return refuse('not-regular', `${kindOf(info)}, not a regular file`, 'save the page as an ordinary file');
    if (!(await openedInside(handle, root, real, info))) return outside();
    const cap = opts.maxBytes;
    const raise = opts.capSetting ? ` (raise ${opts.capSetting} to read it)` : '';
    if (info.size > cap) return refuse('too-large', `${mib(info.size)}, over the ${mib(cap)} cap`, `shorten it${raise}`);
    // Read up to one byte past the cap: a file that grows while read (or one whose size fstat does not give,
    // as /proc files) is refused as soon as it passes the cap, never held whole.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK, cap + 1 - total);
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buf, 0, want, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === want ? buf : buf.subarray(0, bytesRead));
      total += bytesRead;
      if (total > cap) return refuse('too-large', `it grew past the ${mib(cap)} cap while it was read (${mib(info.size)} when opened)`, `save a finished copy of the page${raise}`);
    }
    return { ok: true, bytes: Buffer.concat(chunks, total), path: real };
  } catch (e) {
    return { ok: false, problem: 'unreadable', reason: `${shown}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Whether the opened handle is the file inside the folder: on Linux its own path (/proc/self/fd/N, what was
 * really opened, whatever happened to the names in between); elsewhere the handle's device and inode must be
 * those of the checked path.
 */
async function openedInside(handle: FileHandle, root: string, real: string, info: { dev: number; ino: number }): Promise<boolean> {
  try {
    return inside(root, await realpath(`/proc/self/fd/${handle.fd}`));
  } catch {
    try {
      const s = await stat(real);
      return s.dev === info.dev && s.ino === info.ino;
    } catch {
      return false;
    }
  }
}

/**
 * A file a person named on its own (`check --source FILE`): a link is followed (naming it was their choice),
 * but what it leads to must be a regular file, read under the cap (not a FIFO, /dev/zero or /dev/stdin).
 */
export async function readNamedFile(path: string, opts: Omit<FolderFileOptions, 'folderName' | 'name'>): Promise<FolderFileRead> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, problem: 'missing', reason: `${path}: no such file` };
    return { ok: false, problem: 'unreadable', reason: `${path}: cannot be read (${code ?? (e as Error).message})` };
  }
  return readFolderFile(dirname(real), basename(real), { ...opts, name: path, folderName: 'folder' });
}

/** `path` relative to `folder` with "/" separators (for entries found by listing a folder). */
export function entryOf(folder: string, path: string): string {
  return relative(folder, path).split(sep).join('/');
}
