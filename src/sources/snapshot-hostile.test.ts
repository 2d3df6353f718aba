/**
 * A `--sources` folder whose entries are not what they claim to be (issue 45 item 1), through the CLI started
 * as its own process and through POST /v1/citations/check on a server in its own process: a symlink out to
 * /etc/passwd, a symlink to /dev/zero, a FIFO, and a file that grows while it is read are each refused by
 * name for their citation alone (nothing of them is served as evidence, no read without end, no hang), a
 * good entry beside them is still read, and the server's health answers throughout (polled). A file named on
 * its own (`check --source FILE`) may be a link, but not a FIFO or a device. The folder is generated here,
 * never committed.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AuditReport } from '../audit/types.js';
import { makeTestIndex, postJson, type TestIndex } from '../server/testing/harness.js';
import { cliEntryArgs } from '../cli/testing/cli-entry.js';

const CHILD = fileURLToPath(new URL('./testing/snapshot-server-child.ts', import.meta.url));
/** The page cap of these runs (sources.maxBytes, --max-bytes): the growing file passes it within milliseconds. */
const CAP = 100_000;
/** A hang guard, not a speed bound: before the fix a FIFO held a check past 30 s, /dev/zero never ended. */
const ANSWER_WITHIN_MS = 60_000;

const CLAIM = 'Godrevy Lighthouse was built in 1859 by the engineer James Walker.';
const ENTRIES = {
  fine: { url: 'https://lights.example/godrevy', path: 'godrevy.html' },
  leak: { url: 'https://leak.example/passwd', path: 'leak.txt' },
  zero: { url: 'https://zero.example/zero', path: 'zero.txt' },
  fifo: { url: 'https://pipe.example/pipe', path: 'pipe.txt' },
  grow: { url: 'https://grow.example/grow', path: 'grow.txt' },
} as const;
const REFUSED: Record<Exclude<keyof typeof ENTRIES, 'fine'>, RegExp> = {
  leak: /^snapshot file leak\.txt: refused: it resolves to a path outside the snapshot folder .*copy the file into the snapshot folder/,
  zero: /^snapshot file zero\.txt: refused: it resolves to a path outside the snapshot folder/,
  fifo: /^snapshot file pipe\.txt: refused: a FIFO \(named pipe\), not a regular file; save the page as an ordinary file/,
  grow: /^snapshot file grow\.txt: refused: .*(over|grew past) the 100000 bytes cap.*raise sources\.maxBytes/,
};

let dir: string;
let folder: string;
let writer: ChildProcess | undefined;

/** grow.txt gets 64 KiB every few ms up to 16 MiB: it passes the cap while (or before) it is read. */
function startGrowing(): ChildProcess {
  const file = join(folder, ENTRIES.grow.path);
  const code = `const fs=require('node:fs');const b=Buffer.alloc(65536,'growing page text ');let n=0;const t=setInterval(()=>{fs.appendFileSync(${JSON.stringify(file)},b);if(++n>=256)clearInterval(t)},2);`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vc-snapshot-hostile-'));
  folder = join(dir, 'sources');
  await mkdir(folder);
  await writeFile(join(folder, ENTRIES.fine.path), `<html><head><title>Godrevy light</title></head><body><article><p>${CLAIM}</p><p>The tower stands on Godrevy Island.</p></article></body></html>`);
  await symlink('/etc/passwd', join(folder, ENTRIES.leak.path));
  await symlink('/dev/zero', join(folder, ENTRIES.zero.path));
  execFileSync('mkfifo', [join(folder, ENTRIES.fifo.path)]);
  await writeFile(join(folder, ENTRIES.grow.path), 'A page still being saved. '.repeat(40));
  await writeFile(join(folder, 'manifest.jsonl'), Object.values(ENTRIES).map((e) => JSON.stringify(e)).join('\n') + '\n');
  writer = startGrowing();
});
after(async () => {
  writer?.kill();
  await rm(dir, { recursive: true, force: true });
});

describe('veracite audit --sources (the CLI as its own process)', () => {
  it('refuses the symlink out, the device, the FIFO and the growing file by name; the good page is read', async () => {
    const article = join(dir, 'godrevy.wikitext');
    await writeFile(article, Object.values(ENTRIES).map((e) => `${CLAIM}<ref>{{cite web |url=${e.url} |title=Page}}</ref>`).join('\n\n') + '\n');
    const out = join(dir, 'report.json');
    const child = spawn(process.execPath, [...cliEntryArgs(), 'audit', article, '--title', 'Godrevy', '--no-index', '--sources', folder, '--max-bytes', String(CAP), '--scorer', 'lexical', '--out', out, '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), ANSWER_WITHIN_MS * 4);
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    clearTimeout(guard);
    assert.equal(code, 0, `exit ${code}: ${stderr}`);
    assert.doesNotMatch(stdout + stderr, /root:x:0:0/, 'nothing of /etc/passwd is printed');
    const report = JSON.parse(await readFile(out, 'utf8')) as AuditReport;
    assert.doesNotMatch(JSON.stringify(report), /root:x:0:0|growing page text/, 'nothing of a refused entry is in the report');
    const byUrl = new Map(report.citations.map((c) => [c.source.url, c]));
    assert.equal(byUrl.get(ENTRIES.fine.url)?.source.status, 'found');
    for (const [name, pattern] of Object.entries(REFUSED)) {
      const c = byUrl.get(ENTRIES[name as keyof typeof REFUSED].url);
      assert.equal(c?.source.status, 'blocked', name);
      assert.match(c!.source.reason ?? '', pattern, name);
      assert.equal(c!.verification, undefined, `${name}: never scored`);
      assert.equal(c!.band?.band, 'could-not-check', name);
      assert.match(c!.band?.howToCheck ?? '', /snapshot folder/, `${name}: says what to do`);
    }
  });
});

describe('POST /v1/citations/check with serve --sources (a server in its own process)', () => {
  let ix: TestIndex;
  let proc: ChildProcess;
  let url: string;
  before(async () => {
    ix = await makeTestIndex('vc-snapshot-hostile-ix-');
    proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ix.index, folder, String(CAP)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    for await (const line of createInterface({ input: proc.stdout! })) {
      url = (JSON.parse(line) as { url: string }).url;
      break;
    }
    assert.ok(url, `server child exited before listening: ${stderr}`);
  });
  after(async () => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    await ix.cleanup();
  });

  it('answers each hostile entry with a refusal by name, the good one with its evidence, and health throughout', async () => {
    const polls: number[] = [];
    const failures: string[] = [];
    const inFlight: Promise<void>[] = [];
    const timer = setInterval(() => {
      inFlight.push(
        fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).then(
          async (r) => {
            await r.arrayBuffer();
            polls.push(r.status);
          },
          (e: Error) => void failures.push(e.message),
        ),
      );
    }, 100);
    try {
      const check = async (u: string) => {
        const res = await postJson(`${url}/v1/citations/check`, { claim: CLAIM, source: { url: u }, suggestions: 0 });
        return { status: res.status, body: (await res.json()) as { sourceStatus: string; sourceReason?: string; band: string; existing?: { sentences: { text: string }[] } } };
      };
      // All at once: a FIFO or a device held open would take the server's file threads from the others.
      const names = Object.keys(ENTRIES) as (keyof typeof ENTRIES)[];
      const answers = await Promise.all(names.map((n) => Promise.race([check(ENTRIES[n].url), new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`${n}: no answer in ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS).unref())])));
      const by = Object.fromEntries(names.map((n, i) => [n, answers[i]!]));
      assert.equal(by.fine!.status, 200);
      assert.equal(by.fine!.body.sourceStatus, 'found');
      assert.ok(by.fine!.body.existing?.sentences.some((s) => s.text === CLAIM));
      for (const [name, pattern] of Object.entries(REFUSED)) {
        const a = by[name]!;
        assert.equal(a.status, 200, name);
        assert.equal(a.body.sourceStatus, 'blocked', name);
        assert.match(a.body.sourceReason ?? '', pattern, name);
        assert.equal(a.body.band, 'could-not-check', name);
        assert.doesNotMatch(JSON.stringify(a.body), /root:x:0:0|growing page text/, name);
      }
      // A second round, after the first: nothing was left held.
      assert.equal((await check(ENTRIES.fifo.url)).body.sourceStatus, 'blocked');
      assert.equal((await check(ENTRIES.fine.url)).body.sourceStatus, 'found');
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      clearInterval(timer);
      await Promise.all(inFlight);
    }
    assert.deepEqual(failures, [], 'every health poll answered');
    assert.ok(polls.length >= 3, `only ${polls.length} health polls ran`);
    assert.ok(polls.every((s) => s === 200), `health answered ${[...new Set(polls)].join(', ')}`);
  });
});

describe('veracite check --source FILE (the CLI as its own process)', () => {
  it('refuses a FIFO and a link to /dev/zero with what to give instead (exit 65), and reads a link to a saved page', async () => {
    const run = (source: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [...cliEntryArgs(), 'check', CLAIM, '--source', source, '--no-index', '--no-recommend', '--scorer', 'lexical'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        const guard = setTimeout(() => child.kill('SIGKILL'), ANSWER_WITHIN_MS * 2);
        child.once('exit', (code) => {
          clearTimeout(guard);
          resolve({ code, stdout, stderr });
        });
      });
    const linked = join(dir, 'linked-page.html');
    await symlink(join(folder, ENTRIES.fine.path), linked);
    const [fifo, zero, fine] = await Promise.all([run(join(folder, ENTRIES.fifo.path)), run(join(folder, ENTRIES.zero.path)), run(linked)]);
    assert.equal(fifo.code, 65, fifo.stderr);
    assert.match(fifo.stderr, /--source: cannot read .*pipe\.txt: a FIFO \(named pipe\), not a regular file\. Give a saved page \(\.txt, \.md, \.html, \.pdf\), '-' for stdin, or an http\(s\) URL/);
    assert.equal(zero.code, 65, zero.stderr);
    assert.match(zero.stderr, /--source: cannot read .*zero\.txt: a character device, not a regular file\./);
    assert.equal(fine.code, 0, fine.stderr);
    assert.match(fine.stdout, /Godrevy Lighthouse was built in 1859/);
  });
});
