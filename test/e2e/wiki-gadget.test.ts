/**
 * The wiki gadget (src/wiki-gadget) in Debian's Chromium: a saved Wikipedia article page served from one
 * loopback origin, the gadget injected into it, and a veracite server on another loopback origin started
 * with --allow-origin for the page's origin and a token. Checks that every prose footnote gets its band
 * marker in place (footnotes outside the prose, an infobox's and a figure's, get none), that a popover
 * shows the claim, the evidence sentence, a better source with a ready {{cite ...}} template and a
 * {{failed verification}} tag with working copy buttons, that nothing is written anywhere but the
 * clipboard, and that a page from an origin the server does not allow gets nothing. Runs once against the
 * real audit (the Bodmin page's sources are not fetched: every citation "could not check") and once
 * against a scripted audit giving every band. Saves its screenshot in test-artifacts/; with
 * VERACITE_UPDATE_DOCS=1 it also refreshes docs/wiki-gadget.png, the README's picture (a test run never
 * rewrites a tracked file otherwise).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { CitationView } from '../../src/audit/citation-view.js';
import type { AuditCitation, AuditInput } from '../../src/audit/types.js';
import type { AuditRunOptions, AuditService } from '../../src/server/audit-service.js';
import type { RunningServer } from '../../src/server/start.js';
import { fakeModels } from '../../src/server/testing/fake-models.js';
import { makeTestIndex, startTestServer, type TestIndex } from '../../src/server/testing/harness.js';
import { chromiumMissing, launchBrowser } from './browser.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ARTICLE = join(ROOT, 'test', 'fixtures', 'wiki', 'bodmin-rendered.html');
const GADGET = join(ROOT, 'src', 'wiki-gadget', 'veracite-gadget.js');
const SCREENSHOT = process.env.VERACITE_UPDATE_DOCS === '1' ? join(ROOT, 'docs', 'wiki-gadget.png') : join(process.cwd(), 'test-artifacts', 'wiki-gadget.png');
const TOKEN = 'gadget-e2e-token-7c1f9a2b4d6e';

/** Every band, by citation position: the scripted audit. */
const SCRIPT: Record<number, 'supported' | 'not-supported' | 'could-not-check' | 'partly' | 'needs-review'> = {
  0: 'supported', 1: 'not-supported', 2: 'supported', 3: 'could-not-check', 4: 'partly', 5: 'not-supported', 6: 'needs-review', 7: 'supported', 8: 'could-not-check', 9: 'supported',
};

function scripted(c: AuditCitation): CitationView {
  const band = SCRIPT[c.index] ?? 'supported';
  const base: CitationView = {
    citationId: c.id, index: c.index, claim: c.claim, context: c.context, sectionPath: c.sectionPath, source: c.source, tags: c.tags,
    sourceStatus: 'found', verifiability: 0.9, scoreSignal: 'probability', failedVerification: false, suggestions: [],
    existing: { title: c.source.title ?? 'Cited page', sentences: [{ index: 0, text: 'Some other sentence.', evidence: false }, { index: 1, text: `Evidence for: ${c.claim}`, evidence: true, score: 0.8 }] },
  };
  if (band === 'could-not-check') return { ...base, sourceStatus: 'dead', sourceReason: 'HTTP 404 and no archived copy', verifiability: null, existing: undefined } as CitationView;
  if (band === 'partly') return { ...base, verifiability: 0.55, band: 'partly-supported' } as CitationView;
  if (band === 'needs-review') return { ...base, verifiability: 0.48, band: 'needs-review' } as CitationView;
  if (band === 'not-supported') {
    return {
      ...base,
      verifiability: 0.08,
      failedVerification: true,
      existing: { title: 'Cited page', sentences: [{ index: 0, text: 'The page talks about something else.', evidence: true, score: 0.1 }] },
      suggestions: [{ docId: 'doi-1', title: 'Bodmin | a history', url: 'https://doi.org/10.5555/bodmin.1', score: 0.91, sentences: [{ index: 2, text: 'A sentence that supports the claim.', evidence: true, score: 0.9 }] }],
    };
  }
  return base;
}

class ScriptedAudit implements AuditService {
  readonly name = 'scripted';
  async auditArticle(article: AuditInput, run: AuditRunOptions): Promise<void> {
    for (const c of article.citations) {
      await new Promise((r) => setTimeout(r, 30)); // progress the page can see
      run.onCitation(scripted(c));
    }
  }
  async checkCitation(): Promise<CitationView> {
    throw new Error('not used');
  }
}

/** The saved article, served as a wiki would serve it (another origin than the veracite server). */
async function servePage(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/wiki/Bodmin') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

interface GadgetLogic {
  bandOf(v: unknown): string;
  citeTemplate(s: unknown, today: Date): string;
  failedVerificationTag(today: Date): string;
  noteIdOf(v: unknown): string | undefined;
  assignMarkers(views: unknown[], markers: { noteId: string; text: string }[]): Record<string, number>;
  sseParser(): (text: string) => { event: string; id?: string; data: string }[];
}

describe('wiki gadget logic (Node)', () => {
  let logic: GadgetLogic;
  before(async () => {
    const sandbox: { window: { veraciteGadget?: { logic: GadgetLogic } } } = { window: {} };
    runInNewContext(await readFile(GADGET, 'utf8'), sandbox);
    const inner = sandbox.window.veraciteGadget!.logic;
    // Objects made in the script's own realm: compared as plain JSON.
    const plain = <F extends (...a: never[]) => unknown>(f: F) => ((...a: Parameters<F>) => JSON.parse(JSON.stringify(f(...a)) ?? 'null')) as F;
    logic = { ...inner, assignMarkers: plain(inner.assignMarkers), sseParser: () => plain(inner.sseParser()) };
  });

  it('bands: the view\'s own band, else derived from status, score and flag', () => {
    const found = { sourceStatus: 'found', verifiability: 0.7, failedVerification: false };
    assert.equal(logic.bandOf(found), 'supported');
    assert.equal(logic.bandOf({ ...found, failedVerification: true }), 'not-supported');
    assert.equal(logic.bandOf({ ...found, sourceStatus: 'dead', verifiability: null }), 'could-not-check');
    assert.equal(logic.bandOf({ ...found, verifiability: null }), 'could-not-check');
    assert.equal(logic.bandOf({ ...found, band: 'partly supported' }), 'partly');
    assert.equal(logic.bandOf({ ...found, band: 'needs_review' }), 'needs-review');
    assert.equal(logic.bandOf({ ...found, band: 'not supported' }), 'not-supported');
    assert.equal(logic.bandOf({ ...found, band: 'could not check' }), 'could-not-check');
  });

  it('templates: cite journal with identifiers, cite web with an access date, a dated failed-verification tag', () => {
    const day = new Date('2025-11-03T12:00:00Z');
    assert.equal(logic.citeTemplate({ title: 'A | B', url: 'https://doi.org/10.1000/xyz.1' }, day), '{{cite journal |title=A {{!}} B |doi=10.1000/xyz.1}}');
    assert.equal(logic.citeTemplate({ title: 'T', url: 'https://pubmed.ncbi.nlm.nih.gov/29876543/' }, day), '{{cite journal |title=T |pmid=29876543}}');
    assert.equal(logic.citeTemplate({ title: 'P', url: 'https://arxiv.org/abs/2104.01234v2' }, day), '{{cite arXiv |eprint=2104.01234 |title=P}}');
    assert.equal(logic.citeTemplate({ title: 'Page }} x', url: 'https://example.org/a' }, day), '{{cite web |url=https://example.org/a |title=Page x |access-date=2025-11-03}}');
    assert.equal(logic.failedVerificationTag(day), '{{failed verification|date=November 2025}}');
  });

  it('a citation finds its footnote marker by note id, then by its claim', () => {
    const view = (index: number, note: string, claim: string) => ({ citationId: `A#${index}`, index, claim, source: { raw: `<li id="${note}"><span>x</span></li>` } });
    const markers = [
      { noteId: 'cite_note-census-1', text: 'Population 14,736' }, // infobox: not audited
      { noteId: 'cite_note-2', text: 'Bodmin is a town.' },
      { noteId: 'cite_note-census-1', text: 'Bodmin had 14,736 people in 2011.' },
      { noteId: 'cite_note-r-9', text: 'The first was in 1497.' },
      { noteId: 'cite_note-r-9', text: 'Gilbert was born in Bodmin.' },
    ];
    const at = logic.assignMarkers([view(3, 'cite_note-r-9', 'Gilbert was born in Bodmin.'), view(0, 'cite_note-2', 'Bodmin is a town.'), view(1, 'cite_note-census-1', 'Bodmin had 14,736 people in 2011.'), view(2, 'cite_note-r-9', 'The first was in 1497.')], markers);
    assert.deepEqual(at, { 'A#0': 1, 'A#1': 2, 'A#2': 3, 'A#3': 4 });
    assert.equal(logic.noteIdOf({ source: { raw: '<li id="cite_note-a&amp;b-3">' } }), 'cite_note-a&b-3');
    assert.equal(logic.noteIdOf({ source: { raw: 'plain text' } }), undefined);
  });

  it('server-sent events split across chunks', () => {
    const push = logic.sseParser();
    assert.deepEqual(push('retry: 2000\n\nevent: citation\nid: 1\ndata: {"a"'), []);
    assert.deepEqual(push(':1}\n\n: keep-alive\n\nevent: done\ndata: {}\n\n'), [
      { event: 'citation', id: '1', data: '{"a":1}' },
      { event: 'done', data: '{}' },
    ]);
  });
});

describe('wiki gadget on a saved Wikipedia page (Chromium)', { skip: chromiumMissing() ?? false }, () => {
  let ix: TestIndex;
  let real: RunningServer;
  let scriptedServer: RunningServer;
  let page: { url: string; close(): Promise<void> };
  let other: { url: string; close(): Promise<void> };
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let gadget: string;

  before(async () => {
    const html = await readFile(ARTICLE, 'utf8');
    gadget = await readFile(GADGET, 'utf8');
    [ix, page, other, browser] = await Promise.all([makeTestIndex('veracite-gadget-'), servePage(html), servePage(html), launchBrowser()]);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: page.url });
    real = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'real'), token: TOKEN, allowOrigins: [page.url] });
    scriptedServer = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'scripted'), token: TOKEN, allowOrigins: [page.url] }, () => new ScriptedAudit());
  });

  after(async () => {
    await browser?.close();
    await real?.close();
    await scriptedServer?.close();
    await page?.close();
    await other?.close();
    await ix?.cleanup();
  });

  /** Opens the article, records every request the page makes, injects the gadget and starts it. */
  async function openWithGadget(base: string, server: string): Promise<{ p: Page; requests: { method: string; url: string }[] }> {
    const p = await browser.context.newPage();
    p.on('pageerror', (e) => assert.fail(`error in the page: ${e.message}`));
    const requests: { method: string; url: string }[] = [];
    p.on('request', (r) => requests.push({ method: r.method(), url: r.url() }));
    await p.goto(`${base}/wiki/Bodmin`);
    await p.evaluate(([s, t]) => {
      (globalThis as unknown as { veraciteGadgetConfig: unknown }).veraciteGadgetConfig = { server: s, token: t, autorun: false };
    }, [server, TOKEN]);
    await p.addScriptTag({ content: gadget }); // a classic script, as common.js and a bookmarklet run it
    await p.click('#veracite-run');
    return { p, requests };
  }

  it('with the real audit: every prose footnote is marked in place, the others are not; nothing is written to the page\'s origin', async () => {
    const { p, requests } = await openWithGadget(page.url, real.url);
    await p.waitForSelector('#veracite-panel[data-status="done"]', { timeout: 60_000 });
    const marks = await p.$$eval('.veracite-mark[data-citation]', (els) => els.map((e) => ({ band: e.getAttribute('data-band'), note: e.getAttribute('data-note'), after: e.previousElementSibling?.matches('sup.reference') ?? false, inTable: !!e.closest('table, figure') })));
    assert.equal(marks.length, 10, JSON.stringify(marks));
    assert.ok(marks.every((m) => m.after && !m.inTable), 'each right after its footnote marker, none in the infobox or a figure');
    assert.ok(marks.every((m) => m.band === 'could-not-check'), 'sources are not fetched by this server: could not check');
    assert.deepEqual(marks.map((m) => m.note), ['cite_note-2', 'cite_note-3', 'cite_note-census-1', 'cite_note-4', 'cite_note-5', 'cite_note-6', 'cite_note-7', 'cite_note-rebellion-9', 'cite_note-10', 'cite_note-rebellion-9']);
    assert.equal(await p.$$eval('table .veracite-mark, figure .veracite-mark', (e) => e.length), 0);
    assert.match((await p.textContent('#veracite-status')) ?? '', /Done: 10 citations checked, 10 marked/);
    await p.click('.veracite-mark[data-citation]');
    assert.match((await p.textContent('#veracite-popover .veracite-unchecked')) ?? '', /Could not be read/);
    // Only the veracite server is written to; the wiki's origin gets GETs only.
    assert.ok(requests.filter((r) => r.url.startsWith(page.url)).every((r) => r.method === 'GET'));
    assert.ok(requests.some((r) => r.method === 'POST' && r.url === `${real.url}/v1/audits`));
    await p.close();
  });

  it('with every band: markers, legend, popover with claim, evidence, a better source\'s {{cite}} and a dated {{failed verification}} tag, copied in one click', async () => {
    const { p } = await openWithGadget(page.url, scriptedServer.url);
    await p.waitForSelector('#veracite-panel[data-status="done"]', { timeout: 60_000 });
    const bands = await p.$$eval('.veracite-mark[data-citation]', (els) => els.map((e) => e.getAttribute('data-band')));
    assert.deepEqual(bands, ['supported', 'not-supported', 'supported', 'could-not-check', 'partly', 'not-supported', 'needs-review', 'supported', 'could-not-check', 'supported']);
    assert.match((await p.textContent('#veracite-legend')) ?? '', /supported: 4.*partly supported: 1.*not supported: 2.*needs review: 1.*could not check: 2/);

    // Citation 1 (index 1): "It is situated south-west of Bodmin Moor." flagged, with a better source.
    await p.click('.veracite-mark[data-citation="Bodmin#1"]');
    await p.waitForSelector('#veracite-popover');
    assert.equal(await p.getAttribute('#veracite-popover', 'data-band'), 'not-supported');
    assert.match((await p.textContent('#veracite-popover .veracite-claim')) ?? '', /south-west of Bodmin Moor/);
    assert.equal(await p.textContent('#veracite-popover .veracite-evidence-box .veracite-evidence'), 'The page talks about something else.');
    const cite = await p.inputValue('#veracite-popover textarea.veracite-cite');
    assert.equal(cite, '{{cite journal |title=Bodmin {{!}} a history |doi=10.5555/bodmin.1}}');
    const tag = await p.inputValue('#veracite-popover textarea.veracite-fv');
    assert.match(tag, /^\{\{failed verification\|date=(January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\}\}$/);
    await p.click('#veracite-popover .veracite-better .veracite-copy');
    await p.waitForSelector('#veracite-popover .veracite-better .veracite-copy[data-copied="true"]');
    assert.equal(await p.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), cite);
    await p.screenshot({ path: SCREENSHOT, clip: { x: 0, y: 0, width: 1280, height: 900 } });
    await p.click('#veracite-popover .veracite-tag .veracite-copy');
    await p.waitForSelector('#veracite-popover .veracite-tag .veracite-copy[data-copied="true"]');
    assert.equal(await p.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), tag);

    // A supported citation: no tag to copy; a citation whose source could not be read says why.
    await p.keyboard.press('Escape');
    await p.click('.veracite-mark[data-citation="Bodmin#0"]');
    assert.equal(await p.getAttribute('#veracite-popover', 'data-band'), 'supported');
    assert.equal(await p.$$eval('#veracite-popover .veracite-tag', (e) => e.length), 0);
    await p.keyboard.press('Escape');
    assert.equal(await p.$$eval('#veracite-popover', (e) => e.length), 0, 'Escape closes the popover');
    await p.click('.veracite-mark[data-citation="Bodmin#3"]');
    assert.match((await p.textContent('#veracite-popover .veracite-unchecked')) ?? '', /dead.*HTTP 404/);

    // The article's own footnotes still work and the page text is unchanged but for the markers.
    assert.equal(await p.$$eval('sup.reference', (e) => e.length), 12);
    await p.close();
  });

  it('a page from an origin the server does not allow gets nothing, and says how to allow it', async () => {
    const { p } = await openWithGadget(other.url, scriptedServer.url);
    await p.waitForSelector('#veracite-panel[data-status="error"]', { timeout: 30_000 });
    assert.match((await p.textContent('#veracite-error')) ?? '', /Cannot reach .*--allow-origin http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(await p.$$eval('.veracite-mark[data-citation]', (e) => e.length), 0);
    await p.close();
  });
});
