/**
 * Issue 38: applying a later Wikimedia dump to an index. An adds-changes file (with a deletions list)
 * replaces edited pages, adds new ones and removes pages that became redirects or were deleted; a complete
 * later dump also removes the pages it no longer holds. Both are killed at every write they make (a
 * store whose N-th write throws, as crash-recovery.test.ts does) and resumed: the index ends the same.
 */
import { strict as assert } from 'node:assert';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { wikitextProse } from '../app/wikitext-prose.js';
import { ingestSource, type IngestOptions } from './ingest.js';
import { LanceStore } from './lancedb-store.js';

const SAMPLES = 'data/samples/wikimedia';
const BASE = `${SAMPLES}/enwiki-sample-pages-articles-multistream.xml.bz2`;
const CHANGES = `${SAMPLES}/enwiki-sample-adds-changes.xml.gz`;
const DELETIONS = `${SAMPLES}/enwiki-sample-deletions.txt`;
const LATER = `${SAMPLES}/enwiki-sample-later-pages-articles.xml.bz2`;
const AFTER = ['Canton_of_Étaples', 'Charlie_Milstead', 'Goryeo_ware'];
const WRITES = new Set(['upsert', 'deleteDocuments', 'setCheckpoint', 'clearCheckpoint', 'buildTextIndex', 'setSetting', 'putTitleAliases', 'deleteTitleAliases']);

/** The store, except that its `killAt`-th write throws (and nothing after it runs), as a kill would. */
function dyingAt(store: LanceStore, killAt: number): { store: LanceStore; writes: () => number } {
  let writes = 0;
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      if (!WRITES.has(String(prop))) return (v as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        if (++writes === killAt) throw new Error(`killed at write ${writes} (${String(prop)})`);
        return (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  return { store: proxy, writes: () => writes };
}

describe('updating an index from Wikimedia dumps', () => {
  let dir: string;
  let baseIndex: string;
  let opts: IngestOptions;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-wikiupd-'));
    opts = { format: 'mediawiki', batchSize: 1, wikitextToText: await wikitextProse() };
    baseIndex = join(dir, 'base');
    const store = await LanceStore.open(baseIndex);
    const s = await ingestSource(store, BASE, opts);
    assert.equal(s.documents, 4);
    await store.close();
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function fresh(name: string): Promise<string> {
    const idx = join(dir, name);
    await cp(baseIndex, idx, { recursive: true });
    return idx;
  }

  async function assertUpdated(idx: string, what: string): Promise<void> {
    const store = await LanceStore.open(idx, { create: false });
    try {
      const ids: string[] = [];
      for await (const keys of store.documentKeys()) ids.push(...keys.map((k) => k.id));
      assert.deepEqual(ids.sort(), AFTER, `${what}: edited and new pages in, the redirected and deleted ones out`);
      const milstead = (await store.getDocuments(['Charlie_Milstead']))[0]!;
      assert.ok(milstead.sentences.some((s) => /two district titles/.test(s)), `${what}: the latest revision of the edited page`);
      assert.equal((await store.searchText('two district titles East Texas', 1))[0]?.passage.docId, 'Charlie_Milstead');
      assert.equal((await store.getPassages('Alexander_Y_Type')).length, 0, `${what}: no passage of a removed page is left`);
      assert.ok((await store.searchText('single-decker bus Leyland Leopard', 5)).every((h) => h.passage.docId !== 'Alexander_Y_Type'));
      // Redirects: the retargeted one resolves to the new page, the page turned into a redirect is recorded.
      assert.deepEqual((await store.findTitles(['etaples canton'])).map((t) => t.id), ['Canton_of_Étaples'], `${what}: the retargeted redirect`);
      assert.deepEqual((await store.findTitles(['goryeo celadon'])).map((t) => t.id), ['Goryeo_ware']);
      const aliases: string[] = [];
      for await (const batch of store.titleAliases()) aliases.push(...batch.map((a) => `${a.id}${a.target ? ` -> ${a.target}` : ''}`));
      assert.ok(aliases.includes('Etaples_canton -> Canton_of_Étaples') && !aliases.includes('Etaples_canton -> Étaples'), `${what}: ${aliases.join(', ')}`);
      const stats = await store.stats();
      assert.equal(stats.documents, AFTER.length);
      assert.ok(stats.textIndexed);
    } finally {
      await store.close();
    }
  }

  it('an adds-changes file and a deletions list: edited page replaced (latest revision), new page added, page now a redirect and deleted page removed', async () => {
    const idx = await fresh('changes');
    const store = await LanceStore.open(idx);
    const s = await ingestSource(store, CHANGES, { ...opts, update: 'changes', deletions: DELETIONS });
    await store.close();
    assert.equal(s.replaced, 1);
    assert.equal(s.documents, 1);
    assert.equal(s.redirects, 2, 'Alexander Y Type, now a redirect, and Etaples canton, retargeted');
    assert.equal(s.deleted, 2);
    await assertUpdated(idx, 'changes');
  });

  it('a complete later dump removes the pages it no longer holds (--update full)', async () => {
    const idx = await fresh('full');
    const store = await LanceStore.open(idx);
    const s = await ingestSource(store, LATER, { ...opts, update: 'full' });
    await store.close();
    assert.equal(s.deleted, 2, 'Alexander Y Type and The Atlas (newspaper) are gone from the later dump');
    await assertUpdated(idx, 'full');
  });

  for (const [kind, file, extra] of [['changes', CHANGES, { update: 'changes', deletions: DELETIONS }], ['full', LATER, { update: 'full' }]] as const) {
    it(`killed at each write of a ${kind} update and run again: the same index`, async () => {
      // Count the writes of an uninterrupted run, then kill a run at each of them in turn.
      const probe = await LanceStore.open(await fresh(`${kind}-count`));
      const counted = dyingAt(probe, Infinity);
      await ingestSource(counted.store, file, { ...opts, ...extra });
      await probe.close();
      const total = counted.writes();
      assert.ok(total >= 5, `an update writes several times (${total})`);
      let resumed = 0;
      // The full update shares its reading and batch writes with the changes one: only its own end (the
      // removal of pages gone from the dump, the index build, the checkpoint) is killed write by write.
      for (let k = kind === 'full' ? total - 4 : 1; k <= total; k++) {
        const idx = await fresh(`${kind}-kill-${k}`);
        const first = await LanceStore.open(idx);
        await assert.rejects(ingestSource(dyingAt(first, k).store, file, { ...opts, ...extra }), /killed at write/);
        await first.close();
        const again = await LanceStore.open(idx);
        const s = await ingestSource(again, file, { ...opts, ...extra });
        assert.equal(s.interrupted, false);
        if (s.resumedFrom > 0) resumed++;
        await again.close();
        await assertUpdated(idx, `${kind}, killed at write ${k} of ${total}`);
      }
      assert.ok(resumed > 0, 'kills after a checkpoint resume there (the reader skips the pages already committed, and reports them again)');
    });
  }
});
