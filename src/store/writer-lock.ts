/**
 * One writer per index: an exclusive lock file (`writer.lock` in the index directory) naming its holder
 * (pid, host, start time, command). Readers never take or break it, so searches are never blocked; a read
 * open of an index with no documents yet only reports it (lockStatus: an ingest running, or a stale lock).
 *
 * Taking the lock is atomic: the holder's record is written to a private temporary file and hard-linked
 * to the lock name, which fails if the name exists, so no one ever sees a half-written lock. A lock left
 * by a process that died (kill -9, power loss) is stale when it names this host and its pid is no longer
 * running, or now belongs to a process started later (pid reuse, checked against /proc start times on
 * Linux); a stale lock is broken on the spot, so a crashed `index` can be rerun at once. A lock held on
 * another host cannot be checked from here and is never broken automatically: the message says which
 * file to delete once that writer is known to be gone.
 *
 * Why not proper-lockfile (the usual npm choice): it decides staleness by the age of a heartbeat mtime, so
 * a crashed writer blocks the next run for the stale period, and a live writer whose event loop is busy
 * longer than that period (chunking a huge document) loses its lock to a second writer. Pid liveness is
 * immediate and does not depend on timers.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const WRITER_LOCK_FILE = 'writer.lock';

export interface LockHolder {
  pid: number;
  host: string;
  /** When the lock was taken (ISO time). */
  startedAt: string;
  /** The holder's command line, for the message a second writer sees. */
  command: string;
  /** Linux: the holder's start time in clock ticks after boot (/proc/<pid>/stat field 22), to detect pid reuse. */
  procStart?: string;
  /** Unique per acquisition: tells our lock from a newer one with the same pid. */
  token: string;
}

/** Another process writes this index (or wrote it and may still be running on another host). */
export class WriterLockError extends Error {
  readonly code = 'ELOCKED';
  constructor(
    readonly dir: string,
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'WriterLockError';
  }
}

export interface AcquireOptions {
  /** Shown to a second writer; default: this process's argv. */
  command?: string;
  /** Told when a stale lock (dead holder) was removed, e.g. to log it. */
  onStale?: (holder: LockHolder) => void;
}

/** Locks this process holds, removed synchronously if the process exits without releasing them. */
const held = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [path, token] of held) {
      try {
        if (parseHolder(readFileSync(path, 'utf8'))?.token === token) unlinkSync(path);
      } catch {
        /* already gone */
      }
    }
  });
}

export class WriterLock {
  private released = false;
  private constructor(
    readonly dir: string,
    readonly path: string,
    readonly holder: LockHolder,
  ) {}

  /**
   * Takes the writer lock of `dir` (created if missing), breaking a stale one. Throws WriterLockError
   * naming the holder when a live process holds it.
   */
  static async acquire(dir: string, opts: AcquireOptions = {}): Promise<WriterLock> {
    await mkdir(dir, { recursive: true });
    const path = join(dir, WRITER_LOCK_FILE);
    const me: LockHolder = {
      pid: process.pid,
      host: hostname(),
      startedAt: new Date().toISOString(),
      command: opts.command ?? process.argv.slice(1).join(' ').slice(0, 300),
      token: randomUUID(),
    };
    const start = procStartTime(process.pid);
    if (start) me.procStart = start;
    // A few rounds: each failed round either found a live holder (thrown) or removed a stale lock.
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await createExclusive(path, JSON.stringify(me, null, 2))) {
        held.set(path, me.token);
        installExitHook();
        return new WriterLock(dir, path, me);
      }
      const current = await readHolder(path);
      if (current === 'missing') continue; // released between our attempt and the read
      if (current === 'unreadable') {
        throw new WriterLockError(dir, path, undefined, `${dir}: the writer lock ${path} cannot be read; if no veracite process is writing this index, delete that file and retry`);
      }
      if (!isStale(current)) throw new WriterLockError(dir, path, current, describeHolder(dir, path, current));
      if (await breakStale(path, current)) opts.onStale?.(current);
    }
    throw new WriterLockError(dir, path, undefined, `${dir}: could not take the writer lock ${path} (it keeps changing hands); retry`);
  }

  /** Throws if the lock file is no longer ours (removed or taken over by hand): stop writing at once. */
  async assertHeld(): Promise<void> {
    if (this.released) throw new WriterLockError(this.dir, this.path, undefined, `${this.dir}: the writer lock was already released`);
    const current = await readHolder(this.path);
    if (typeof current === 'object' && current.token === this.holder.token) return;
    const who = typeof current === 'object' ? ` (now held by pid ${current.pid} on ${current.host})` : ' (the lock file was removed)';
    throw new WriterLockError(this.dir, this.path, typeof current === 'object' ? current : undefined, `${this.dir}: this process lost the writer lock${who}; stopping before writing more`);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    held.delete(this.path);
    const current = await readHolder(this.path);
    if (typeof current === 'object' && current.token === this.holder.token) await unlink(this.path).catch(() => undefined);
  }
}

/** What a lock file says to a reader, which never takes nor breaks it: who holds it, and whether that holder is gone. */
export type LockStatus =
  | { state: 'none' }
  | { state: 'unreadable'; path: string }
  | { state: 'running' | 'stale' | 'other-host'; path: string; holder: LockHolder };

/**
 * The lock as a read command should report it: held by a running process on this host, stale (its pid is
 * dead or reused: the writer was killed), or held on another host (cannot be checked from here).
 */
export async function lockStatus(dir: string): Promise<LockStatus> {
  const path = join(dir, WRITER_LOCK_FILE);
  const h = await readHolder(path);
  if (h === 'missing') return { state: 'none' };
  if (h === 'unreadable') return { state: 'unreadable', path };
  return { state: h.host !== hostname() ? 'other-host' : isStale(h) ? 'stale' : 'running', path, holder: h };
}

/** The message a second writer sees. */
export function describeHolder(dir: string, path: string, h: LockHolder): string {
  const where = h.host === hostname() ? `pid ${h.pid}` : `pid ${h.pid} on host ${h.host}`;
  const hint =
    h.host === hostname()
      ? 'wait for it to finish or stop it, then retry'
      : `wait for it to finish; if that process is gone, delete ${path} and retry`;
  return `${dir} is being written by another process (${where}, since ${h.startedAt}: ${h.command || 'unknown command'}); one writer at a time: ${hint}. Searches of the index still work meanwhile.`;
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  await writeFile(tmp, content);
  try {
    await link(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // File systems without hard links: exclusive create (a reader may then briefly see a partial file).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP') {
      try {
        await writeFile(path, content, { flag: 'wx' });
        return true;
      } catch (e2) {
        if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw e2;
      }
    }
    throw e;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

async function readHolder(path: string): Promise<LockHolder | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return 'unreadable';
  }
  return parseHolder(text) ?? 'unreadable';
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || typeof h.host !== 'string' || typeof h.token !== 'string') return undefined;
    return { pid: h.pid, host: h.host, startedAt: String(h.startedAt ?? ''), command: String(h.command ?? ''), token: h.token, ...(h.procStart ? { procStart: h.procStart } : {}) };
  } catch {
    return undefined;
  }
}

/** Dead holder on this host (no such pid, or the pid now belongs to a process started later). */
export function isStale(h: LockHolder): boolean {
  if (h.host !== hostname()) return false;
  if (!pidAlive(h.pid)) return true;
  if (h.procStart) {
    const now = procStartTime(h.pid);
    if (now && now !== h.procStart) return true;
  }
  return false;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux: start time of `pid` in clock ticks after boot; undefined elsewhere or when unreadable. */
export function procStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ..."; comm may hold spaces and parentheses, so fields are counted after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19]; // field 22 of the whole line; fields here start at field 3
  } catch {
    return undefined;
  }
}

/**
 * Removes a stale lock without racing a process that takes the lock meanwhile: the lock is renamed away
 * (atomic; only one process moves a given file), and if what was moved is not the stale lock we judged
 * (someone took the lock in between) it is put back.
 */
async function breakStale(path: string, judged: LockHolder): Promise<boolean> {
  const aside = `${path}.stale.${randomUUID().slice(0, 8)}`;
  try {
    await rename(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  const moved = await readHolder(aside);
  if (typeof moved === 'object' && moved.token !== judged.token) {
    await link(aside, path).catch(() => undefined); // a newer holder: restore its lock (if nobody else took it)
    await unlink(aside).catch(() => undefined);
    return false;
  }
  await unlink(aside).catch(() => undefined);
  return true;
}
