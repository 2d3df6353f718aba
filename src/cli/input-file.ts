/**
 * A file named on the command line, checked before any model or index opens: one that is not there is a
 * missing input (66), a folder where a file is wanted or a file with nothing in it is bad data (65), each
 * said in words with what the command expected (util/exit-codes.ts). '-' (stdin) and URLs are not files.
 */
import { open, stat } from 'node:fs/promises';
import { BadDataError, MissingInputError } from '../util/exit-codes.js';

/** Bytes read to tell an empty (or whitespace-only) file from one with content. */
const PEEK_BYTES = 64 * 1024;

/** Throws unless `path` is a file with something other than white space in it. `expected` says what it should hold. */
export async function checkInputFile(path: string, what: string, expected: string): Promise<void> {
  if (path === '-' || /^https?:\/\//i.test(path)) return;
  let size: number;
  try {
    const s = await stat(path);
    if (s.isDirectory()) throw new BadDataError(`${what} ${path} is a folder: give a file (${expected})`);
    size = s.size;
  } catch (e) {
    if (e instanceof BadDataError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new MissingInputError(`${what} ${path}: no such file (${expected})`);
    throw new MissingInputError(`${what} ${path}: cannot be read (${(e as Error).message})`);
  }
  if (size === 0 || !(await hasContent(path))) throw new BadDataError(`${what} ${path} is empty: nothing to read (${expected})`);
}

async function hasContent(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(PEEK_BYTES);
    const { bytesRead } = await fh.read(buf, 0, PEEK_BYTES, 0);
    // Past the peek, assume content: a file of more than 64 KB of white space is not worth a full read.
    return bytesRead === PEEK_BYTES || /\S/.test(buf.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await fh.close();
  }
}
