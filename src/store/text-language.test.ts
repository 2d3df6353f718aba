/**
 * `--lang` (issue 38): the full-text analyzer follows the language of the edition indexed. German plural
 * "Keilwellen" is found by "Keilwelle" with the German stemmer and not with the English one; an index keeps
 * one analyzer.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ingestSource } from './ingest.js';
import { LanceStore } from './lancedb-store.js';

describe('the full-text analyzer follows --lang', () => {
  it('stems German with --lang de (and the dump language when it names one), refuses a second language in the same index', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vc-lang-'));
    try {
      const file = join(dir, 'dewiki-cirrussearch-content.json');
      const docs = [
        { title: 'Welle (Technik)', text: 'Die Keilwellen wurden aus Stahl gefräst und gehärtet.' },
        { title: 'Zahnrad', text: 'Ein Zahnrad überträgt Drehmomente zwischen zwei Achsen.' },
      ];
      await writeFile(file, docs.flatMap((d, i) => [JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ namespace: 0, wiki: 'dewiki', ...d })]).join('\n') + '\n');
      const found = async (lang: string | undefined, name: string) => {
        const store = await LanceStore.open(join(dir, name));
        await ingestSource(store, file, { format: 'cirrus', ...(lang ? { lang } : {}) });
        const hits = await store.searchText('Keilwelle', 5);
        await store.close();
        return hits.map((h) => h.passage.docId);
      };
      assert.deepEqual(await found('de', 'de'), ['Welle_(Technik)']);
      assert.deepEqual(await found(undefined, 'from-dump'), ['Welle_(Technik)'], 'dewiki: German without --lang');
      assert.deepEqual(await found('en', 'en'), [], 'the English stemmer leaves "keilwellen" apart from "keilwelle"');
      const store = await LanceStore.open(join(dir, 'de'));
      await assert.rejects(ingestSource(store, file, { format: 'cirrus', lang: 'fr', resume: false }), /analysed as German; --lang fr needs its own index/);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
