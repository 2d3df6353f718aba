/**
 * Issue 38: Wikipedia's own dumps as the corpus, end to end through the CLI. The fixtures are real
 * articles (data/samples/wikimedia, built by scripts/build-wiki-fixtures.ts): a MediaWiki export in the
 * multistream bzip2 form and a CirrusSearch bulk file; each is indexed, searched and verified against.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from './testing/run-cli.js';

const SAMPLES = 'data/samples/wikimedia';
const XML = `${SAMPLES}/enwiki-sample-pages-articles-multistream.xml.bz2`;
const CIRRUS = `${SAMPLES}/enwiki-sample-cirrussearch-content.json.gz`;
const ARTICLES = ['Alexander_Y_Type', 'Charlie_Milstead', 'Goryeo_ware', 'The_Atlas_(newspaper)'];

interface IndexOut {
  stats: { documents: number; passages: number };
  sources: { format: string; documents: number; redirects: number; disambiguations: number; skipped: number }[];
}
interface SearchOut {
  passages: { passage: { docId: string; text: string } }[];
}

describe('veracite index of Wikimedia dumps', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-wikidump-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--format mediawiki reads the multistream .xml.bz2 (concatenated bzip2 streams): articles as prose, redirects and disambiguation pages recorded, not indexed; search and verify find the article', async () => {
    const idx = join(dir, 'xml');
    const out = JSON.parse(await runCli(['index', XML, '--format', 'mediawiki', '--index', idx, '--quiet', '--json'])) as IndexOut;
    const s = out.sources[0]!;
    assert.equal(s.format, 'mediawiki');
    assert.equal(s.documents, 4, 'the four main-namespace articles; the talk page is not read');
    assert.equal(s.redirects, 3, '"Toronto, Ontario", "Goryeo celadon" and "Etaples canton" are redirects');
    assert.equal(s.disambiguations, 1, '"Atlas" transcludes {{disambiguation}}');
    assert.equal(s.skipped, 0);
    assert.equal(out.stats.documents, 4);

    // Every article comes back, each under its title; the redirect and the disambiguation page are not there.
    for (const id of ARTICLES) {
      const hits = JSON.parse(await runCli(['search', id.replace(/_/g, ' ').replace(/[()]/g, ''), '--index', idx, '-k', '1', '--json'])) as SearchOut;
      assert.equal(hits.passages[0]?.passage.docId, id);
    }
    const korean = JSON.parse(await runCli(['search', 'Korean pottery porcelain celadon', '--index', idx, '-k', '10', '--json'])) as SearchOut;
    assert.equal(korean.passages[0]!.passage.docId, 'Goryeo_ware');
    const all = korean.passages.map((p) => p.passage.docId);
    assert.ok(!all.includes('Atlas') && !all.includes('Toronto,_Ontario'));
    // Wikitext became prose with the project's parser: no template, link or ref markup in any passage.
    for (const p of korean.passages) assert.doesNotMatch(p.passage.text, /\{\{|\}\}|\[\[|<ref|'''/);

    const verdict = JSON.parse(await runCli(['verify', 'Charlie Milstead was drafted by the Washington Redskins in the 1960 NFL Draft.', '--index', idx, '--json'])) as { label: string; evidence: { docId: string; text: string }[] };
    assert.ok(['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'].includes(verdict.label));
    assert.equal(verdict.evidence[0]?.docId, 'Charlie_Milstead');
    assert.ok(verdict.evidence.some((e) => /Washington Redskins/.test(e.text)));
  });

  it('--index-file and --read-workers: the multistream read by stream indexes the same documents; a bad index is named by file and line', async () => {
    const INDEX = `${SAMPLES}/enwiki-sample-pages-articles-multistream-index.txt.bz2`;
    const out = JSON.parse(await runCli(['index', XML, '--format', 'mediawiki', '--index-file', INDEX, '--read-workers', '2', '--index', join(dir, 'by-stream'), '--quiet', '--json'])) as IndexOut;
    assert.equal(out.sources[0]!.documents, 4);
    assert.equal(out.sources[0]!.redirects, 3);
    const bad = join(dir, 'bad-index.txt');
    await writeFile(bad, '434:1001:Charlie Milstead\n434:1002\n');
    await assert.rejects(runCli(['index', XML, '--format', 'mediawiki', '--index-file', bad, '--index', join(dir, 'bad'), '--quiet']), /bad-index\.txt:2: not a multistream index line/);
    await assert.rejects(runCli(['index', CIRRUS, '--format', 'cirrus', '--index-file', INDEX, '--index', join(dir, 'bad'), '--quiet']), /--index-file is the index of a multistream MediaWiki dump/);
  });

  it('--format cirrus reads the CirrusSearch bulk file (action line, document line): the same articles, searchable', async () => {
    const idx = join(dir, 'cirrus');
    const out = JSON.parse(await runCli(['index', CIRRUS, '--format', 'cirrus', '--index', idx, '--quiet', '--json'])) as IndexOut;
    const s = out.sources[0]!;
    assert.equal(s.format, 'cirrus');
    assert.equal(s.documents, 4);
    assert.equal(s.disambiguations, 1);
    assert.equal(s.redirects, 1, 'the redirects an article lists ("Goryeo celadon" -> Goryeo ware)');
    const hits = JSON.parse(await runCli(['search', 'newspaper founded by Robert Stephen Rintoul', '--index', idx, '-k', '3', '--json'])) as SearchOut;
    assert.equal(hits.passages[0]?.passage.docId, 'The_Atlas_(newspaper)');
    // auto detection from the file name
    const auto = JSON.parse(await runCli(['index', CIRRUS, '--index', join(dir, 'auto'), '--quiet', '--json'])) as IndexOut;
    assert.equal(auto.sources[0]!.format, 'cirrus');
  });
});
