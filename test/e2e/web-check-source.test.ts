/**
 * The web page's "Check a source" form (src/web/check-source.js) in Debian's Chromium: one claim against
 * pasted text, an uploaded HTML / PDF file and a URL the index holds, shown as `veracite check` shows it
 * (status and why, the source's evidence coloured by role, better sources); files of another type or over
 * 1 MiB are refused in the page before anything is sent, and the server's refusal of a file that is not
 * what it says is shown in words. Fake verification models, the real citation check (lexical scorer).
 * With better sources from search (`serve --suggest-from search`, a loopback OpenAlex answering in its
 * documented shape, an unreachable Crossref): the better source's card says who found it and offers the
 * server's ready {{cite journal}} with a copy button; the provider that failed is named.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../src/server/start.js';
import { fakeModels } from '../../src/server/testing/fake-models.js';
import { makeTestIndex, startTestServer, type TestIndex } from '../../src/server/testing/harness.js';
import { sampleUrl, supportedClaims } from '../../src/server/testing/sample-index.js';
import { chromiumMissing, launchBrowser } from './browser.js';
import { startSearchApiServer, type SearchApiServer } from '../fixtures/search/serve-search-apis.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PDF = join(ROOT, 'data', 'samples', 'documents', 'sources', 'pdf', 'seal-survey-2021.pdf');
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

describe('web page: check a claim against one source (Chromium)', { skip: chromiumMissing() ?? false }, () => {
  let ix: TestIndex;
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let posted = 0;

  before(async () => {
    ix = await makeTestIndex('veracite-web-source-');
    [server, browser] = await Promise.all([startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'data') }), launchBrowser()]);
    page = await browser.context.newPage();
    page.on('pageerror', (e) => assert.fail(`error in the page: ${e.message}`));
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/v1/citations/check') && posted++);
    await page.goto(`${server.url}/#/source`);
    await page.waitForSelector('body[data-ready="true"]');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await ix?.cleanup();
  });

  async function submit(): Promise<void> {
    await page.click('#source-submit');
    await page.waitForFunction(() => {
      const s = (globalThis as unknown as { document: { getElementById(id: string): { dataset: { state?: string } } | null } }).document.getElementById('source-result')?.dataset.state;
      return s === 'done' || s === 'error';
    });
  }

  it('pasted text: the status, the evidence sentence coloured by role, the claim\'s words marked', async () => {
    await page.fill('#source-claim', 'Grey seals haul out on the north coast of Cornwall.');
    await page.check('input[name="source-kind"][value="text"]');
    await page.fill('#source-text', 'Seal watching is popular. Grey seals haul out on the north coast of Cornwall every autumn. Pups are born in the winter.');
    await submit();
    assert.equal(await page.textContent('#source-error'), '');
    const status = await page.getAttribute('#source-status', 'data-status');
    assert.ok(['supported', 'partly-supported', 'needs-review', 'not-supported'].includes(status ?? ''), `a scored band: ${status}`);
    assert.match((await page.textContent('#source-status')) ?? '', /(supported|partly supported|needs review|not supported).*(probability of support|score) \d\.\d\d/);
    assert.ok((await page.locator('#source-result .ev[data-role]').count()) > 0, 'evidence sentences carry their role');
    assert.ok((await page.locator('#source-result .ev mark').count()) > 0, 'claim words marked');
    assert.ok((await page.locator('#source-result .legend').count()) === 1);
  });

  it('an uploaded HTML file and an uploaded PDF are read as `veracite check` reads them', async () => {
    await page.check('input[name="source-kind"][value="file"]');
    assert.equal(await page.isVisible('#source-text'), false);
    const html = '<html><head><title>Seals of Cornwall</title></head><body><nav>Home | Shop</nav><main><p>Grey seals haul out on the north coast of Cornwall every autumn.</p></main></body></html>';
    await page.setInputFiles('#source-file', { name: 'seals.html', mimeType: 'text/html', buffer: Buffer.from(html) });
    await submit();
    assert.equal(await page.textContent('#source-error'), '');
    assert.match((await page.textContent('#source-result .source')) ?? '', /Grey seals haul out/);
    assert.doesNotMatch((await page.textContent('#source-result')) ?? '', /Home \| Shop|<p>/);

    await page.fill('#source-claim', 'The survey covered eleven haul-out sites between Newquay and Cape Cornwall.');
    await page.setInputFiles('#source-file', { name: 'seal-survey-2021.pdf', mimeType: 'application/pdf', buffer: await readFile(PDF) });
    await submit();
    assert.equal(await page.textContent('#source-error'), '');
    assert.match((await page.textContent('#source-result .source')) ?? '', /eleven haul-out sites/);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'web-check-source.png'), fullPage: true });
  });

  it('files of another type or over 1 MiB are refused in the page, nothing sent; a file that is not what it says is refused by the server, in words', async () => {
    const before = posted;
    await page.setInputFiles('#source-file', { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
    await submit();
    assert.match((await page.textContent('#source-error')) ?? '', /photo\.png: the server reads HTML, PDF, Markdown and text files only/);
    await page.setInputFiles('#source-file', { name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1024 * 1024 + 1, 'a') });
    await submit();
    assert.match((await page.textContent('#source-error')) ?? '', /huge\.txt is 1\.0 MiB; the server takes files up to 1 MiB/);
    assert.equal(posted, before, 'nothing sent');
    await page.setInputFiles('#source-file', { name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('plain words, no PDF') });
    await submit();
    assert.match((await page.textContent('#source-error')) ?? '', /The file: fake\.pdf was sent as a PDF but is not one/);
  });

  it('a URL the index holds is checked there (no live fetch needed)', async () => {
    const claim = supportedClaims()[0]!;
    await page.check('input[name="source-kind"][value="url"]');
    await page.fill('#source-claim', claim.claim);
    await page.fill('#source-url', sampleUrl(claim.docId));
    await submit();
    assert.equal(await page.textContent('#source-error'), '');
    assert.ok(['supported', 'partly-supported', 'needs-review', 'not-supported'].includes((await page.getAttribute('#source-status', 'data-status')) ?? ''));
    assert.ok((await page.locator('#source-result .source .ev').count()) > 0);
  });
});

describe('web page: a better source found by search, with its ready citation (Chromium)', { skip: chromiumMissing() ?? false }, () => {
  let ix: TestIndex;
  let apis: SearchApiServer;
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  before(async () => {
    [ix, apis, browser] = await Promise.all([makeTestIndex('veracite-web-search-'), startSearchApiServer(), launchBrowser()]);
    // As `veracite serve --suggest-from search --search openalex,crossref --api-base openalex=...,crossref=...` (abstracts only).
    server = await startTestServer(ix.index, fakeModels(), {
      dataDir: join(ix.root, 'data'),
      settings: {
        sources: { apis: { openalex: apis.bases.openalex, crossref: 'http://127.0.0.1:9' }, apiIntervalMs: 0, cache: join(ix.root, 'cache'), timeoutMs: 2000 },
        search: { suggestFrom: 'search', providers: ['openalex', 'crossref'], maxFetches: 0 },
      },
    });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await apis?.close();
    await ix?.cleanup();
  });

  it("a claim its pasted source does not support: the paper search found, who found it, and the server's {{cite journal}} copied in one click", async () => {
    const page = await browser.context.newPage();
    page.on('pageerror', (e) => assert.fail(`error in the page: ${e.message}`));
    await page.goto(`${server.url}/#/source`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#source-claim', 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.');
    await page.check('input[name="source-kind"][value="text"]');
    await page.fill('#source-text', 'Sourdough bread rises slowly overnight in a cool kitchen. Rye flour gives a denser loaf than wheat flour.');
    await page.click('#source-submit');
    await page.waitForFunction(() => {
      const s = (globalThis as unknown as { document: { getElementById(id: string): { dataset: { state?: string } } | null } }).document.getElementById('source-result')?.dataset.state;
      return s === 'done' || s === 'error';
    });
    assert.equal(await page.textContent('#source-error'), '');
    assert.ok(['not-supported', 'needs-review'].includes((await page.getAttribute('#source-status', 'data-status')) ?? ''), 'flagged: not supported or needs review');
    const card = page.locator('#source-result .suggestions .source').first();
    assert.equal(await card.locator('.source-title a').getAttribute('href'), 'https://doi.org/10.5555/seal.pups.2022');
    assert.match((await card.locator('.found-by').textContent()) ?? '', /^Found by OpenAlex search for \u201C[^\u201D]*seal[^\u201D]*\u201D$/);
    const cite = await card.locator('textarea.cite').inputValue();
    assert.match(cite, /^\{\{cite journal \|author1=Ann Trewin \|author2=Peter Hosking \|title=Grey seal pup production in Cornwall, 2016-2021 \|journal=Journal of Coastal Ecology \|date=2022-01-15 \|doi=10\.5555\/seal\.pups\.2022 \|pmid=35000001 \|access-date=\d{4}-\d{2}-\d{2}\}\}$/);
    await card.locator('button.copy').click();
    await page.waitForSelector('#source-result .suggestions button.copy[data-copied="true"]');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), cite);
    // The cited text (pasted) has no citation to copy; the provider that failed is named.
    assert.equal(await page.locator('#source-result .side-by-side > .source textarea.cite').count(), 0);
    assert.match((await page.textContent('#source-result .search-failed')) ?? '', /Crossref search: could not reach 127\.0\.0\.1:9/);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'web-check-source-search.png'), fullPage: true });
    await page.close();
  });
});
