/**
 * Issue 38: redirects and disambiguation pages of a dump are recorded as title aliases, not indexed, and
 * document retrieval by title resolves a redirect title to its article ("Goryeo celadon" -> Goryeo ware).
 * Updates apply changed, new and deleted redirects; a complete later dump prunes the ones it lacks.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { wikitextProse } from '../app/wikitext-prose.js';
import { titleMatches } from '../verify/document-retrieval.js';
import { ingestSource, type IngestOptions } from './ingest.js';
import { LanceStore } from './lancedb-store.js';
import type { TitleAlias } from './types.js';

const SAMPLES = 'data/samples/wikimedia';
const BASE = `${SAMPLES}/enwiki-sample-pages-articles-multistream.xml.bz2`;
const CHANGES = `${SAMPLES}/enwiki-sample-adds-changes.xml.gz`;
const DELETIONS = `${SAMPLES}/enwiki-sample-deletions.txt`;
const LATER = `${SAMPLES}/enwiki-sample-later-pages-articles.xml.bz2`;
const CIRRUS = `${SAMPLES}/enwiki-sample-cirrussearch-content.json.gz`;

async function aliasesOf(store: LanceStore): Promise<Record<string, string>> {
  const all: TitleAlias[] = [];
  for await (const batch of store.titleAliases()) all.push(...batch);
  return Object.fromEntries(all.sort((a, b) => a.id.localeCompare(b.id)).map((a) => [a.id, a.kind === 'redirect' ? `-> ${a.target}` : a.kind]));
}

const found = async (store: LanceStore, claim: string) => (await titleMatches(store, claim, 5)).map((t) => t.id);

describe('redirects and disambiguation pages as title aliases', () => {
  let dir: string;
  let baseIndex: string;
  let opts: IngestOptions;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-aliases-'));
    opts = { format: 'mediawiki', batchSize: 2, wikitextToText: await wikitextProse() };
    baseIndex = join(dir, 'base');
    const store = await LanceStore.open(baseIndex);
    const s = await ingestSource(store, BASE, opts);
    assert.equal(s.redirects, 3);
    await store.close();
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function fresh(name: string): Promise<LanceStore> {
    const idx = join(dir, name);
    await cp(baseIndex, idx, { recursive: true });
    return LanceStore.open(idx);
  }

  it('records every redirect (with its target as a document id) and disambiguation page; none is a document', async () => {
    const store = await LanceStore.open(baseIndex, { create: false });
    try {
      assert.deepEqual(await aliasesOf(store), {
        Atlas: 'disambiguation',
        Etaples_canton: '-> Étaples',
        Goryeo_celadon: '-> Goryeo_ware',
        'Toronto,_Ontario': '-> Toronto',
      });
      assert.equal((await store.getDocuments(['Atlas', 'Goryeo_celadon', 'Etaples_canton', 'Toronto,_Ontario'])).length, 0);
      assert.equal((await store.stats()).documents, 4);
      assert.match(await store.snapshot(), /\.a\d+$/, 'the snapshot changes with the aliases');
    } finally {
      await store.close();
    }
  });

  it('title retrieval resolves a redirect title to the article it points to; a redirect to a page the index lacks finds nothing', async () => {
    const store = await LanceStore.open(baseIndex, { create: false, readOnly: true });
    try {
      assert.deepEqual(await found(store, 'Goryeo celadon was exported to China.'), ['Goryeo_ware']);
      const hits = await store.findTitles(['goryeo celadon', 'goryeo ware']);
      assert.deepEqual(hits.map((h) => `${h.key}: ${h.id} (${h.title})`).sort(), ['goryeo celadon: Goryeo_ware (Goryeo ware)', 'goryeo ware: Goryeo_ware (Goryeo ware)']);
      assert.deepEqual(await found(store, 'Etaples canton lies in the Pas-de-Calais department.'), []);
      assert.deepEqual(await found(store, 'Atlas was a Titan.'), [], 'a disambiguation page is recorded, not matched');
    } finally {
      await store.close();
    }
  });

  it('an adds-changes update retargets a redirect, records a page that became one, and a deleted redirect goes', async () => {
    const store = await fresh('changes');
    try {
      const deletions = join(dir, 'deletions.txt');
      await writeFile(deletions, `${await (await import('node:fs/promises')).readFile(DELETIONS, 'utf8')}Toronto, Ontario\n`);
      await ingestSource(store, CHANGES, { ...opts, update: 'changes', deletions });
      assert.deepEqual(await aliasesOf(store), {
        Alexander_Y_Type: '-> Alexander_Y-type',
        Atlas: 'disambiguation',
        Etaples_canton: '-> Canton_of_Étaples',
        Goryeo_celadon: '-> Goryeo_ware',
      });
      assert.deepEqual(await found(store, 'Etaples canton lies in the Pas-de-Calais department.'), ['Canton_of_Étaples']);
      assert.deepEqual(await found(store, 'Alexander Y Type was a bus body.'), [], 'the page is a redirect now, to a page the index lacks');
    } finally {
      await store.close();
    }
  });

  it('CirrusSearch lists redirects on their target: an update replaces the redirects to each page it holds', async () => {
    const idx = join(dir, 'cirrus');
    const store = await LanceStore.open(idx);
    try {
      await ingestSource(store, CIRRUS, { format: 'cirrus' });
      assert.deepEqual(await aliasesOf(store), { Atlas: 'disambiguation', Goryeo_celadon: '-> Goryeo_ware' });
      // A later day's file: Goryeo ware now lists "Goryeo porcelain" and no longer "Goryeo celadon".
      const lines = gunzipSync(readFileSync(CIRRUS)).toString('utf8').trim().split('\n');
      const at = lines.findIndex((l) => l.includes('"title":"Goryeo ware"'));
      const doc = JSON.parse(lines[at]!) as { redirect: { namespace: number; title: string }[] };
      doc.redirect = [{ namespace: 0, title: 'Goryeo porcelain' }];
      const changes = join(dir, 'enwiki-changes-cirrussearch-content.json');
      await writeFile(changes, `${lines[at - 1]}\n${JSON.stringify(doc)}\n`);
      await ingestSource(store, changes, { format: 'cirrus', update: 'changes' });
      assert.deepEqual(await aliasesOf(store), { Atlas: 'disambiguation', Goryeo_porcelain: '-> Goryeo_ware' });
      assert.deepEqual(await found(store, 'Goryeo porcelain was exported to China.'), ['Goryeo_ware']);
      assert.deepEqual(await found(store, 'Goryeo celadon was exported to China.'), []);
    } finally {
      await store.close();
    }
  });

  it('a page that was a redirect and is an article again loses its alias; a complete later dump prunes the redirects it lacks', async () => {
    const store = await fresh('full');
    try {
      // The later dump, with "Goryeo celadon" gone and "Toronto, Ontario" now an article of its own.
      const xml = execFileSync('bzip2', ['-dc', LATER], { encoding: 'utf8' });
      const edited = xml
        .replace(/  <page>\n    <title>Goryeo celadon<\/title>[\s\S]*?<\/page>\n/, '')
        .replace(/(<title>Toronto, Ontario<\/title>[\s\S]*?)<redirect title="Toronto" \/>\n([\s\S]*?<text[^>]*>)[^<]*/, "$1$2'''Toronto, Ontario''' is the capital of the province of Ontario, Canada.");
      assert.notEqual(edited, xml);
      const later = join(dir, 'enwiki-later-pages-articles.xml');
      await writeFile(later, edited);
      await ingestSource(store, later, { ...opts, update: 'full' });
      assert.deepEqual(await aliasesOf(store), { Atlas: 'disambiguation', Etaples_canton: '-> Canton_of_Étaples' });
      assert.deepEqual(await found(store, 'Goryeo celadon was exported to China.'), [], 'the pruned redirect no longer resolves');
      assert.ok((await store.getDocuments(['Toronto,_Ontario'])).length === 1);
    } finally {
      await store.close();
    }
  });
});
