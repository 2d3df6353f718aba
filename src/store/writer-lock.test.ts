import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { procStartTime, WRITER_LOCK_FILE, WriterLock, WriterLockError, type LockHolder } from './writer-lock.js';

function lockChild(dir: string, mode: 'hold' | 'exit'): { child: ChildProcess; line: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/store/lock-child.ts', dir, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = new Promise<string>((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', () => resolve(out.trim()));
  });
  return { child, line };
}

const exited = (c: ChildProcess) => new Promise((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', r)));

describe('writer lock', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-lock-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a second writer (another process) is refused with a message naming the holder; kill -9 frees it at once', async () => {
    const idx = join(dir, 'a');
    const { child, line } = lockChild(idx, 'hold');
    assert.equal(await line, `locked ${child.pid}`);
    await assert.rejects(WriterLock.acquire(idx), (e: unknown) => {
      assert.ok(e instanceof WriterLockError);
      assert.equal(e.holder?.pid, child.pid);
      assert.match(e.message, new RegExp(`being written by another process \\(pid ${child.pid}, since .*lock-child test\\); one writer at a time`));
      return true;
    });
    // A third party (another process) is refused too, and its refusal does not disturb the holder.
    const third = lockChild(idx, 'exit');
    assert.match(await third.line, new RegExp(`^refused .*pid ${child.pid}`));
    child.kill('SIGKILL');
    await exited(child);
    const stale: LockHolder[] = [];
    const lock = await WriterLock.acquire(idx, { onStale: (h) => stale.push(h) });
    assert.deepEqual(stale.map((h) => h.pid), [child.pid]);
    await lock.assertHeld();
    await lock.release();
    assert.ok(!existsSync(join(idx, WRITER_LOCK_FILE)), 'released lock file removed');
  });

  it('a process that exits without releasing leaves no lock behind', async () => {
    const idx = join(dir, 'b');
    const { child, line } = lockChild(idx, 'exit');
    assert.match(await line, /^locked /);
    await exited(child);
    assert.ok(!existsSync(join(idx, WRITER_LOCK_FILE)));
  });

  it('a lock held on another host is never broken; the message says which file to delete', async () => {
    const idx = join(dir, 'c');
    const lock = await WriterLock.acquire(idx);
    await lock.release();
    const other: LockHolder = { pid: 1, host: `not-${hostname()}`, startedAt: '2020-01-01T00:00:00.000Z', command: 'veracite index x', token: 't' };
    await writeFile(join(idx, WRITER_LOCK_FILE), JSON.stringify(other));
    await assert.rejects(WriterLock.acquire(idx), (e: unknown) => e instanceof WriterLockError && e.message.includes(`on host not-${hostname()}`) && e.message.includes(`delete ${join(idx, WRITER_LOCK_FILE)}`));
    await unlink(join(idx, WRITER_LOCK_FILE));
  });

  it('a reused pid (same pid, later process start) is stale; an unreadable lock is refused', { skip: procStartTime(process.pid) === undefined && 'no /proc' }, async () => {
    const idx = join(dir, 'd');
    const lock = await WriterLock.acquire(idx);
    await lock.release();
    const reused: LockHolder = { pid: process.pid, host: hostname(), startedAt: '2020-01-01T00:00:00.000Z', command: 'old', procStart: '1', token: 'old' };
    await writeFile(join(idx, WRITER_LOCK_FILE), JSON.stringify(reused));
    const again = await WriterLock.acquire(idx);
    assert.notEqual(JSON.parse(await readFile(join(idx, WRITER_LOCK_FILE), 'utf8')).token, 'old');
    // Same pid and same start: that is a live holder (this very process), refused.
    await assert.rejects(WriterLock.acquire(idx), WriterLockError);
    await again.release();
    await writeFile(join(idx, WRITER_LOCK_FILE), 'garbage');
    await assert.rejects(WriterLock.acquire(idx), /cannot be read; if no veracite process is writing this index, delete that file/);
    await unlink(join(idx, WRITER_LOCK_FILE));
  });

  it('assertHeld fails once the lock file is gone or taken over', async () => {
    const idx = join(dir, 'e');
    const lock = await WriterLock.acquire(idx);
    await unlink(join(idx, WRITER_LOCK_FILE));
    await assert.rejects(lock.assertHeld(), /lost the writer lock \(the lock file was removed\)/);
    const other = await WriterLock.acquire(idx);
    await assert.rejects(lock.assertHeld(), new RegExp(`now held by pid ${process.pid}`));
    await lock.release();
    assert.ok(existsSync(join(idx, WRITER_LOCK_FILE)), "releasing a lost lock leaves the new holder's file");
    await other.release();
  });
});
