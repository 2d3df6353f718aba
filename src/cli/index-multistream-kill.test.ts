/**
 * Issue 38: a multistream dump indexed in parallel by stream (its index beside it), killed with SIGKILL
 * mid-way (after its checkpoint shows committed pages), then run again with another number of read
 * workers (so other shares): every article is in the index once, with its passages, and the index holds
 * the same documents, sentence for sentence, as a sequential read of the dump.
 */
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { LanceStore } from '../store/lancedb-store.js';
import { writeMultistream } from '../corpus/testing/write-multistream.js';
import { cliEntryArgs } from './testing/cli-entry.js';

const FIXTURE = 'data/samples/wikimedia/enwiki-sample-pages-articles-multistream.xml.bz2';
const COPIES = 12;
const cli = (args: string[]) => [process.execPath, [...cliEntryArgs(), 'index', ...args]] as const;

async function documents(idx: string): Promise<Map<string, string>> {
  const store = await LanceStore.open(idx, { create: false });
  try {
    const ids: string[] = [];
    for await (const keys of store.documentKeys()) ids.push(...keys.map((k) => k.id));
    assert.equal(ids.length, new Set(ids).size, `${idx}: no document twice`);
    const out = new Map<string, string>();
    for (const d of await store.getDocuments(ids)) {
      assert.ok((await store.getPassages(d.id)).length > 0, `${d.id} has its passages`);
      out.set(d.id, d.sentences.join('\n'));
    }
    return out;
  } finally {
    await store.close();
  }
}

describe('a killed parallel read of a multistream dump', () => {
  it('SIGKILL while reading by stream, then again with other shares: the same index as a sequential read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-mskill-'));
    try {
      const xml = execFileSync('bzip2', ['-dc', FIXTURE], { encoding: 'utf8' });
      const head = xml.slice(0, xml.indexOf('  <page>'));
      const pages = xml.slice(xml.indexOf('  <page>'), xml.lastIndexOf('</mediawiki>'));
      const copies = Array.from({ length: COPIES }, (_, c) => pages.replace(/<title>([^<]*)<\/title>/g, (_m, t: string) => `<title>${t} ${c}</title>`));
      const dump = join(dir, 'enwiki-copies-pages-articles-multistream.xml.bz2');
      writeMultistream(dump, join(dir, 'enwiki-copies-pages-articles-multistream-index.txt.bz2'), head + copies.join('') + '</mediawiki>\n', 3);

      const idx = join(dir, 'parallel');
      const args = [dump, '--format', 'mediawiki', '--batch-size', '1', '--index', idx, '--quiet'];
      const [node, first] = cli([...args, '--read-workers', '2']);
      const child = spawn(node, first, { stdio: 'ignore' });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const key = `mediawiki:${resolve(dump)}`;
      let committed = 0;
      for (let i = 0; i < 6000 && committed < 6 && child.exitCode === null; i++) {
        await sleep(20);
        try {
          committed = (JSON.parse(readFileSync(join(idx, 'veracite.json'), 'utf8')) as { checkpoints: Record<string, { records: number }> }).checkpoints[key]?.records ?? 0;
        } catch {
          // read while being replaced (rename): try again
        }
      }
      assert.ok(committed >= 6 && committed < COPIES * 4, `killed mid-way (checkpoint at ${committed} of ${COPIES * 4} articles)`);
      child.kill('SIGKILL');
      await exited;

      const [, again] = cli([...args, '--read-workers', '1', '--json']);
      const resumed = spawnSync(node, again, { encoding: 'utf8', timeout: 300_000 });
      assert.equal(resumed.status, 0, resumed.stderr);
      const out = JSON.parse(resumed.stdout) as { sources: { resumedFrom: number; redirects: number }[] };
      assert.ok(out.sources[0]!.resumedFrom >= committed, 'resumed from the checkpoint the killed run left');

      const [, sequentialArgs] = cli([dump, '--format', 'mediawiki', '--index', join(dir, 'sequential'), '--quiet', '--read-workers', '0']);
      const sequential = spawnSync(node, sequentialArgs, { encoding: 'utf8', timeout: 300_000 });
      assert.equal(sequential.status, 0, sequential.stderr);

      const parallelDocs = await documents(idx);
      const sequentialDocs = await documents(join(dir, 'sequential'));
      assert.equal(parallelDocs.size, COPIES * 4, 'every article of every copy');
      assert.deepEqual([...parallelDocs.keys()].sort(), [...sequentialDocs.keys()].sort());
      for (const [id, text] of sequentialDocs) assert.equal(parallelDocs.get(id), text, `${id}: the same sentences`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
