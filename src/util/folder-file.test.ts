import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readFolderFile } from './folder-file.js';

describe('readFolderFile: a folder entry is opened as what it claims to be', () => {
  let dir: string;
  let folder: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-folder-file-'));
    folder = join(dir, 'pages');
    await mkdir(join(folder, 'sub'), { recursive: true });
    await writeFile(join(folder, 'page.txt'), 'Godrevy Lighthouse was built in 1859.');
    await writeFile(join(folder, 'sub', 'inner.txt'), 'An inner page.');
    await writeFile(join(dir, 'secret.txt'), 'root:x:0:0:root:/root:/bin/bash');
    await symlink('/etc/passwd', join(folder, 'leak.txt'));
    await symlink('../secret.txt', join(folder, 'relative-leak.txt'));
    await symlink('/dev/zero', join(folder, 'zero.txt'));
    await symlink('sub/inner.txt', join(folder, 'alias.txt'));
    await symlink('missing.txt', join(folder, 'dangling.txt'));
    execFileSync('mkfifo', [join(folder, 'pipe.txt')]);
    await writeFile(join(folder, 'big.txt'), 'x'.repeat(5000));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const read = (entry: string, maxBytes = 1024) => readFolderFile(folder, entry, { maxBytes, folderName: 'snapshot folder', capSetting: 'sources.maxBytes' });

  it('reads a regular file inside the folder, and a link that stays inside', async () => {
    const r = await read('page.txt');
    assert.ok(r.ok);
    assert.equal(r.bytes.toString(), 'Godrevy Lighthouse was built in 1859.');
    const a = await read('alias.txt');
    assert.ok(a.ok);
    assert.equal(a.bytes.toString(), 'An inner page.');
  });

  it('refuses a symlink out of the folder (absolute or relative) and a ".." entry, by name, without reading it', async () => {
    for (const entry of ['leak.txt', 'relative-leak.txt', '../secret.txt', '/etc/passwd']) {
      const r = await read(entry);
      assert.equal(r.ok, false, entry);
      assert.ok(!r.ok && r.problem === 'outside', entry);
      assert.match(!r.ok ? r.reason : '', new RegExp(`^${entry.replace(/[.*/]/g, '\\$&')}: refused: .*outside the snapshot folder.*; copy the file into the snapshot folder`));
    }
  });

  it('refuses a symlink to /dev/zero and a FIFO at once (no read, no wait for a writer)', async () => {
    const zero = await read('zero.txt');
    assert.ok(!zero.ok && zero.problem === 'outside');
    const pipe = await read('pipe.txt');
    assert.ok(!pipe.ok && pipe.problem === 'not-regular');
    assert.match(pipe.reason, /^pipe\.txt: refused: a FIFO \(named pipe\), not a regular file; save the page as an ordinary file$/);
  });

  it('refuses a folder entry that is a folder, and says a missing or dangling entry is missing', async () => {
    const sub = await read('sub');
    assert.ok(!sub.ok && sub.problem === 'not-regular');
    for (const entry of ['nothing.txt', 'dangling.txt']) {
      const r = await read(entry);
      assert.ok(!r.ok && r.problem === 'missing', entry);
    }
  });

  it('refuses a file over the cap before reading it, naming the setting that raises it', async () => {
    const r = await read('big.txt', 4096);
    assert.ok(!r.ok && r.problem === 'too-large');
    assert.match(r.reason, /^big\.txt: refused: 5000 bytes, over the 4096 bytes cap; shorten it \(raise sources\.maxBytes to read it\)$/);
    assert.ok((await read('big.txt', 5000)).ok, 'a file of exactly the cap is read');
  });

  it('refuses a file that grows past the cap while it is read (a /proc file: fstat says 0 bytes)', { skip: process.platform !== 'linux' }, async () => {
    // /proc/self/maps is a regular file whose fstat size is 0: only the cap checked while reading stops it.
    const r = await readFolderFile('/proc/self', 'maps', { maxBytes: 200 });
    assert.ok(!r.ok && r.problem === 'too-large', JSON.stringify(r));
    assert.match(r.reason, /^maps: refused: it grew past the 200 bytes cap while it was read \(0 bytes when opened\)/);
    const whole = await readFolderFile('/proc/self', 'maps', { maxBytes: 1024 * 1024 });
    assert.ok(whole.ok && whole.bytes.length > 200, 'under a larger cap it is read whole');
  });
});
