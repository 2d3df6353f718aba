/**
 * Issue 38: `veracite index <changes> --update changes` killed with SIGKILL in the middle of an update (a
 * real kill of the CLI process, after its checkpoint shows committed batches), then run again: every page
 * of the update is in the index once, with its passages, the page that became a redirect is gone, and the
 * checkpoint is cleared. (ingest-updates.test.ts kills at every write deterministically; this is the real thing.)
 */
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { wikitextProse } from '../app/wikitext-prose.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { cliEntryArgs } from './testing/cli-entry.js';

const BASE = 'data/samples/wikimedia/enwiki-sample-pages-articles-multistream.xml.bz2';
const COPIES = 5;

describe('a killed update', () => {
  it('SIGKILL during `index --update changes`, then the same command again: the update is complete and nothing is duplicated', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-wikikill-'));
    try {
      const idx = join(dir, 'idx');
      const base = await LanceStore.open(idx);
      await ingestSource(base, BASE, { format: 'mediawiki', wikitextToText: await wikitextProse() });
      await base.close();

      // The update: the four sample articles under 5 sets of new titles, and Goryeo ware now a redirect.
      const xml = execFileSync('bzip2', ['-dc', BASE], { encoding: 'utf8' });
      const head = xml.slice(0, xml.indexOf('  <page>'));
      const articles = xml.slice(xml.indexOf('  <page>'), xml.indexOf('  <page>\n    <title>Toronto, Ontario'));
      const pages: string[] = [];
      for (let c = 0; c < COPIES; c++) pages.push(articles.replace(/<title>([^<]*)<\/title>/g, (_, t: string) => `<title>${t} ${c}</title>`));
      pages.push('  <page>\n    <title>Goryeo ware</title>\n    <ns>0</ns>\n    <id>1002</id>\n    <redirect title="Korean pottery" />\n    <revision>\n      <id>9999</id>\n      <text xml:space="preserve">#REDIRECT [[Korean pottery]]</text>\n    </revision>\n  </page>\n');
      const changes = join(dir, 'enwiki-changes.xml');
      await writeFile(changes, head + pages.join('') + '</mediawiki>\n');
      const args = [...cliEntryArgs(), 'index', changes, '--format', 'mediawiki', '--update', 'changes', '--batch-size', '1', '--index', idx, '--quiet'];

      const child = spawn(process.execPath, args, { stdio: 'ignore' });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const manifest = join(idx, 'veracite.json');
      const key = `mediawiki:${resolve(changes)}`;
      let committed = 0;
      for (let i = 0; i < 6000 && committed < 4 && child.exitCode === null; i++) {
        await sleep(20);
        try {
          committed = (JSON.parse(readFileSync(manifest, 'utf8')) as { checkpoints: Record<string, { records: number }> }).checkpoints[key]?.records ?? 0;
        } catch {
          // read while being replaced (rename): try again
        }
      }
      assert.ok(committed >= 4 && committed < COPIES * 4, `killed mid-update (checkpoint at ${committed} of ${COPIES * 4} pages)`);
      child.kill('SIGKILL');
      await exited;

      const again = spawnSync(process.execPath, [...args.slice(0, -1), '--json'], { encoding: 'utf8', timeout: 300_000 });
      assert.equal(again.status, 0, again.stderr);
      const out = JSON.parse(again.stdout) as { sources: { resumedFrom: number; deleted: number }[] };
      assert.ok(out.sources[0]!.resumedFrom >= committed, 'resumed from the checkpoint the killed run left');

      const store = await LanceStore.open(idx, { create: false });
      try {
        const ids: string[] = [];
        for await (const keys of store.documentKeys()) ids.push(...keys.map((k) => k.id));
        assert.equal(ids.length, new Set(ids).size, 'no document twice');
        assert.equal(ids.length, 3 + COPIES * 4, 'the three base articles left and every new page');
        assert.ok(!ids.includes('Goryeo_ware'), 'the page that became a redirect is removed');
        for (const id of ids) assert.ok((await store.getPassages(id)).length > 0, `${id} has its passages`);
        assert.equal((await store.stats()).textIndexed, true);
        assert.equal((await store.searchText('Goryeo dynasty celadon 3', 1))[0]?.passage.docId, 'Goryeo_ware_3');
      } finally {
        await store.close();
      }
      assert.ok(existsSync(manifest));
      assert.equal((JSON.parse(readFileSync(manifest, 'utf8')) as { checkpoints: Record<string, unknown> }).checkpoints[key], undefined, 'checkpoint cleared');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
