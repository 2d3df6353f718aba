import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTextPdf } from '../../test/fixtures/pdf/make-pdf.js';
import { parseHtmlDocument } from './html.js';
import { detectFormat, loadDocumentInput } from './load-document.js';
import { parseMarkdownDocument } from './markdown.js';
import { parsePlainTextDocument } from './plain-text.js';

const SAMPLES = fileURLToPath(new URL('../../data/samples/', import.meta.url));

describe('Markdown documents', () => {
  it('reads footnotes, reference links, numbered references, identifiers; several markers on a sentence share its claim', () => {
    const doc = parseMarkdownDocument(
      [
        '# Report',
        '',
        'Seals breed here [1][2]. Counts rose [^a], as [the trust](https://trust.example/a "Trust survey") found. Bites are rare (doi:10.5555/x.1).',
        '',
        '[^a]: Survey, https://trust.example/b',
        '',
        '## References',
        '',
        '[1] Group report. https://group.example/1',
        '[2] A book (1999).',
      ].join('\n'),
    );
    assert.equal(doc.title, 'Report');
    assert.deepEqual(
      doc.citations.map((c) => [c.claim, c.claimPrefix, c.marker, c.source.url ?? c.source.ids?.doi ?? null]),
      [
        ['Seals breed here.', 'Seals breed here', 'numbered', 'https://group.example/1'],
        ['Seals breed here.', 'Seals breed here', 'numbered', null],
        ['Counts rose, as the trust found.', 'Counts rose', 'footnote', 'https://trust.example/b'],
        ['Counts rose, as the trust found.', 'Counts rose, as the trust', 'link', 'https://trust.example/a'],
        ['Bites are rare.', 'Bites are rare', 'identifier', '10.5555/x.1'],
      ],
    );
    assert.equal(doc.citations[3]!.source.title, 'Trust survey');
    assert.deepEqual(doc.citations[2]!.context, ['Seals breed here.']);
  });

  it('reports what gives no citation: a link in a heading, an unused footnote, a missing reference number, a relative link', () => {
    const doc = parseMarkdownDocument(['## About [us](https://us.example)', '', 'Claim one [4]. See [data](data.csv).', '', '[^z]: never used', '', '## Sources', '', '1. Only entry https://one.example'].join('\n'));
    assert.equal(doc.citations.length, 0);
    assert.deepEqual(doc.skipped.map((s) => s.reason).sort(), ['footnote [^z] is never referenced', 'in a heading', 'no entry [4] in the references list', 'not a web link (data.csv)'].sort());
  });
});

describe('HTML documents', () => {
  it('takes footnote references and links from the main text only, with the heading path', () => {
    const doc = parseHtmlDocument(`<html><head><title>Post</title></head><body>
      <nav><a href="https://site.example/">Home</a></nav>
      <article><h1>Post</h1><h2>Findings</h2>
      <p>The bridge opened in 1932.<sup><a href="#n1">[1]</a></sup> It was <a href="https://news.example/paint">painted red</a> in 1950, and again in 1990.<sup><a href="#n1">[1]</a></sup> Some text to make this the main content of the page for Readability.</p>
      <ol class="footnotes"><li id="n1">City archive, <a href="https://archive.example/bridge">bridge file</a> <a href="#r1">↩</a></li></ol>
      </article><footer><a href="https://site.example/legal">Legal</a></footer></body></html>`);
    assert.equal(doc.title, 'Post');
    assert.deepEqual(
      doc.citations.map((c) => [c.claim, c.marker, c.kind, c.source.url, c.sectionPath.join('/')]),
      [
        ['The bridge opened in 1932.', 'footnote', 'ref', 'https://archive.example/bridge', 'Findings'],
        ['It was painted red in 1950, and again in 1990.', 'link', 'ref', 'https://news.example/paint', 'Findings'],
        ['It was painted red in 1950, and again in 1990.', 'footnote', 'reuse', 'https://archive.example/bridge', 'Findings'],
      ],
    );
    assert.equal(doc.citations[1]!.claimPrefix, 'It was painted red');
    assert.doesNotMatch(doc.citations[0]!.source.raw, /↩/);
  });

  it('resolves relative links against the page URL', () => {
    const doc = parseHtmlDocument('<article><p>The tower is 26 metres tall <a href="/towers/godrevy">per the survey</a>. More words so that the paragraph is the content.</p></article>', { baseUrl: 'https://survey.example/report/' });
    assert.equal(doc.citations[0]!.source.url, 'https://survey.example/towers/godrevy');
  });
});

describe('plain text documents', () => {
  it('reads identifiers, bare URLs and a numbered references list; headings are short unpunctuated lines', () => {
    const doc = parsePlainTextDocument(
      ['Seal notes', '', 'Findings', '', 'Pups rose by a fifth [1]. Bites are rare (PMID: 29876543) and', 'mostly minor, see https://bites.example/report.', '', 'References', '[1] Trust survey, doi:10.5555/seal.2021'].join('\n'),
    );
    assert.equal(doc.title, 'Seal notes');
    assert.deepEqual(
      doc.citations.map((c) => [c.claim, c.marker, c.sectionPath.join('/')]),
      [
        ['Pups rose by a fifth.', 'numbered', 'Findings'],
        ['Bites are rare and mostly minor, see.', 'identifier', 'Findings'],
        ['Bites are rare and mostly minor, see.', 'url', 'Findings'],
      ],
    );
    assert.deepEqual(doc.citations[0]!.source.ids, { doi: '10.5555/seal.2021' });
    assert.deepEqual(doc.citations[1]!.source.ids, { pmid: '29876543' });
  });
});

describe('input format detection and loading', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-docs-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('tells Wikipedia inputs from other documents', async () => {
    assert.equal(detectFormat('a.md', '# x'), 'markdown');
    assert.equal(detectFormat('a.html', '<p>plain page</p>'), 'html');
    assert.equal(detectFormat('a.html', '<div class="mw-parser-output"><p>x<sup class="reference">'), 'wikipedia-html');
    assert.equal(detectFormat('Bodmin.txt', "'''Bodmin''' is a town.<ref>{{cite web|url=x}}</ref>"), 'wikipedia-wikitext');
    assert.equal(detectFormat('notes.txt', 'Plain notes. See doi:10.1/x.'), 'text');
    assert.equal(detectFormat('report', new Uint8Array(Buffer.from('%PDF-1.7\n'))), 'pdf');
    assert.equal(detectFormat('cites.jsonl', '{}'), 'kilt');
  });

  it('loads a PDF report as a document of kind pdf, and the shipped Wikipedia sample as before', async () => {
    const pdf = join(dir, 'report.pdf');
    await writeFile(pdf, await makeTextPdf([['Seal report.', 'Pup production at Godrevy rose by a fifth between 2016 and 2021 [1].'], ['References', '[1] Trust survey https://trust.example/reports/seal-survey-2021.pdf']], { title: 'Seal report' }));
    const input = await loadDocumentInput(pdf);
    assert.equal(input.kind, 'pdf');
    assert.equal(input.title, 'Seal report');
    assert.deepEqual(input.citations.map((c) => [c.claim, c.source.url]), [['Pup production at Godrevy rose by a fifth between 2016 and 2021.', 'https://trust.example/reports/seal-survey-2021.pdf']]);
    const wiki = await loadDocumentInput(join(SAMPLES, 'wikitext', 'Bodmin.txt'));
    assert.equal(wiki.kind, 'wikipedia-wikitext');
    assert.ok(wiki.citations.length > 20);
    await assert.rejects(loadDocumentInput('https://example.org/report.md'), /sources.fetch: .* live fetching is off/);
  });
});
