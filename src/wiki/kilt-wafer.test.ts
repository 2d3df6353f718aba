import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { RecordError } from '../corpus/types.js';
import { parseWikitext } from './parse-wikitext.js';
import { readKiltWafer } from './read-kilt-wafer.js';
import { writeKiltWafer } from './write-kilt-wafer.js';

const dir = mkdtempSync(join(tmpdir(), 'veracite-wafer-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => fileURLToPath(new URL(`../../test/fixtures/wiki/${name}`, import.meta.url));
const article = parseWikitext(readFileSync(fixture('citations.wikitext'), 'utf8'), { title: 'Testbury' });

test('round trip: citations -> WAFER JSONL -> citation records', async () => {
  const path = join(dir, 'testbury.jsonl');
  const { written, skipped } = await writeKiltWafer(path, article.citations);
  const withUrl = article.citations.filter((c) => c.source.url);
  assert.equal(written, withUrl.length);
  assert.deepEqual(skipped, article.citations.filter((c) => !c.source.url).map((c) => c.id));

  const back = await readKiltWafer(path);
  assert.deepEqual(
    back.map(({ id, claim, claimPrefix, context, sectionPath, articleTitle, source, tags }) => ({
      id, claim, claimPrefix, context, sectionPath, articleTitle, url: source.url, title: source.title, fv: tags.failedVerification,
    })),
    withUrl.map(({ id, claim, claimPrefix, context, sectionPath, articleTitle, source, tags }) => ({
      id, claim, claimPrefix, context, sectionPath, articleTitle, url: source.url, title: source.title, fv: tags.failedVerification,
    })),
  );
  // and written again, the file is the same: nothing is lost or reordered
  const again = join(dir, 'again.jsonl');
  await writeKiltWafer(again, back);
  assert.equal(readFileSync(again, 'utf8'), readFileSync(path, 'utf8'));
});

test('written records have the WAFER field names SIDE reads', async () => {
  const path = join(dir, 'one.jsonl');
  const market = article.citations.find((c) => c.source.url === 'http://market.example.org')!;
  await writeKiltWafer(path, [market]);
  const record = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(record, {
    id: market.id,
    input: `${market.context.join(' ')} A market was held every Tuesday. [CIT]`,
    output: [{ answer: '{Failed verification}', provenance: [{ url: 'http://market.example.org', title: 'Market history' }] }],
    meta: {
      wikipedia_title: 'Testbury',
      wikipedia_section: 'History',
      section_path: ['History'],
      sentences: [...market.context, 'A market was held every Tuesday. [CIT]'],
    },
  });
});

test('a mid-sentence citation: input ends at [CIT] after the prefix (SIDE), the whole sentence rides in meta.claim_sentence', async () => {
  const path = join(dir, 'mid.jsonl');
  const church = article.citations.find((c) => c.source.url === 'https://news.example.org/church' && c.kind === 'ref')!;
  await writeKiltWafer(path, [church]);
  const record = JSON.parse(readFileSync(path, 'utf8'));
  assert.ok(record.input.endsWith('The first church was built in 1120 [CIT]'));
  assert.equal(record.meta.claim_sentence, 'The first church was built in 1120 and rebuilt after a fire in 1430.');
  const [back] = await readKiltWafer(path);
  assert.equal(back!.claim, church.claim);
  assert.equal(back!.claimPrefix, 'The first church was built in 1120');
});

test('a record with text after [CIT] (marker inside the sentence): claim = the completed sentence, prefix = text before', async () => {
  const path = join(dir, 'inside.jsonl');
  const rec = (id: string, input: string) => JSON.stringify({ id, input, output: [{ answer: 'http://a.example.org', provenance: [{ url: 'http://a.example.org' }] }], meta: {} });
  writeFileSync(path, [rec('a', 'Lead sentence. Bodmin (Bosvena [CIT]) is a town in Cornwall. Next one.'), rec('b', 'One claim. [CIT] Another sentence.')].join('\n') + '\n');
  const [a, b] = await readKiltWafer(path);
  assert.equal(a!.claim, 'Bodmin (Bosvena) is a town in Cornwall.');
  assert.equal(a!.claimPrefix, 'Bodmin (Bosvena');
  assert.deepEqual(a!.context, ['Lead sentence.']);
  assert.equal(b!.claim, 'One claim.', 'a sentence closed before [CIT] is not run into the next one');
});

test('reads WAFER as SIDE ships it: meta.sentences, KILT section names, [SEP] inputs, numeric ids', async () => {
  const items = await readKiltWafer(fixture('wafer-sample.jsonl'));
  assert.equal(items.length, 3);
  const [dev, fail, sep] = items;
  assert.equal(dev!.claim, 'The hamlets of Cooksland, Dunmere and Turfdown are in the parish.');
  assert.equal(dev!.claimPrefix, dev!.claim);
  assert.deepEqual(dev!.context, ['Bodmin lies in the east of Cornwall, south-west of Bodmin Moor.']);
  assert.deepEqual(dev!.sectionPath, ['Situation and origin of the name']);
  assert.equal(dev!.articleTitle, 'Bodmin');
  assert.equal(dev!.source.url, 'http://www.explorebritain.info/browse/cornwall/');
  assert.equal(dev!.tags.failedVerification, false);

  assert.equal(fail!.tags.failedVerification, true);
  assert.deepEqual(fail!.sectionPath, ['History']);
  assert.equal(fail!.source.title, 'A short history of Bodmin');

  assert.equal(sep!.id, '3');
  assert.equal(sep!.articleTitle, 'Bodmin');
  assert.equal(sep!.claim, 'The first was the Cornish Rebellion of 1497.');
  assert.deepEqual(sep!.context, ['Bodmin was the centre of three Cornish uprisings.']);
});

test('a malformed record stops the read with file, line and field', async () => {
  const path = join(dir, 'bad.jsonl');
  writeFileSync(path, '{"id": "a", "input": "Fine. [CIT]", "output": [], "meta": {}}\n{"id": "b", "meta": {}}\n');
  await assert.rejects(readKiltWafer(path), (e: unknown) => {
    assert.ok(e instanceof RecordError);
    assert.equal(e.line, 2);
    assert.equal(e.field, 'input');
    return true;
  });
});
