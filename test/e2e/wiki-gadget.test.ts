/**
 * The wiki gadget (src/wiki-gadget) in Debian's Chromium: a saved Wikipedia article page served from one
 * loopback origin, the gadget injected into it, and a veracite server on another loopback origin started
 * with --allow-origin for the page's origin and a token. Checks that every prose footnote gets its band
 * marker in place (footnotes outside the prose, an infobox's and a figure's, get none), that a popover
 * shows the claim, the evidence sentence, a better source with a ready {{cite ...}} template and a
 * {{failed verification}} tag with working copy buttons, that nothing is written anywhere but the
 * clipboard, and that a page from an origin the server does not allow gets nothing. Runs once against the
 * real audit (the Bodmin page's sources are not fetched: every citation "could not check", and the panel
 * says which flag would let the server read them; the token is asked for in an editor's words) and once
 * against a scripted audit giving every band, where the popover must fit the viewport at 1280x900 and
 * 420x800 wherever its marker is, and no marker may wrap away from its footnote at any column width.
 * Once more against the real audit with better sources from search (`serve --suggest-from search`) on a
 * small article rendered as a wiki page, its cited pages in a --sources folder and a loopback OpenAlex
 * answering in its documented shape (test/fixtures/search): the popover of the citation whose page is about
 * something else shows the paper search found, who found it, and the server's {{cite journal}} with its
 * access date (copied in one click); a failing provider is named; the supported citation gets no suggestion.
 * Saves a screenshot in test-artifacts/ (the README's picture is made from real output by
 * scripts/gadget-screenshot.ts).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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
import { startSearchApiServer, type SearchApiServer } from '../fixtures/search/serve-search-apis.js';
import { renderWikiPage } from '../../scripts/sample-wiki-page.js';
import { parseWikitext } from '../../src/wiki/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ARTICLE = join(ROOT, 'test', 'fixtures', 'wiki', 'bodmin-rendered.html');
const GADGET = join(ROOT, 'src', 'wiki-gadget', 'veracite-gadget.js');
const SCREENSHOT = join(process.cwd(), 'test-artifacts', 'wiki-gadget.png');
const TOKEN = 'gadget-e2e-token-7c1f9a2b4d6e';

/** Every band, by citation position: the scripted audit. */
const SCRIPT: Record<number, 'supported' | 'not-supported' | 'could-not-check' | 'partly' | 'needs-review'> = {
  0: 'supported', 1: 'not-supported', 2: 'supported', 3: 'could-not-check', 4: 'partly', 5: 'not-supported', 6: 'needs-review', 7: 'supported', 8: 'could-not-check', 9: 'supported',
};

/** A long evidence sentence: the popover holding it is taller than either viewport and must scroll inside. */
const LONG = `${'The cited page discusses the parish, its boundaries and the names it has had over the centuries in great detail. '.repeat(24)}`.trim();

/** The view the server would send, band and all (the gadget shows the server's band, never its own). */
function scripted(c: AuditCitation): CitationView {
  const band = SCRIPT[c.index] ?? 'supported';
  const base: CitationView = {
    citationId: c.id, index: c.index, claim: c.claim, context: c.context, sectionPath: c.sectionPath, source: c.source, tags: c.tags,
    sourceStatus: 'found', verifiability: 0.9, scoreSignal: 'probability', failedVerification: false, suggestions: [], band: 'supported', bandReason: 'probability of support 0.90, at or above 0.43',
    existing: { title: c.source.title ?? 'Cited page', sentences: [{ index: 0, text: 'Some other sentence.', evidence: false }, { index: 1, text: `Evidence for: ${c.claim}`, evidence: true, score: 0.8 }] },
  };
  if (band === 'could-not-check') return { ...base, band: 'could-not-check', sourceStatus: 'dead', sourceReason: 'HTTP 404 and no archived copy', verifiability: null, existing: undefined, bandReason: 'HTTP 404 and no archived copy', howToCheck: 'find an archived copy (archive-url) or a replacement source' };
  if (band === 'partly') return { ...base, verifiability: 0.3, band: 'partly-supported', bandReason: 'probability of support 0.30' };
  if (band === 'needs-review') return { ...base, verifiability: 0.16, band: 'needs-review', bandReason: 'too close to call' };
  if (band === 'not-supported') {
    return {
      ...base,
      band: 'not-supported',
      bandReason: 'probability of support 0.08, below 0.15',
      verifiability: 0.08,
      failedVerification: true,
      existing: { title: 'Cited page', sentences: [{ index: 0, text: c.index === 5 ? LONG : 'The page talks about something else.', evidence: true, score: 0.1 }] },
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

/**
 * A small article for better sources from search: the first claim cites a bakery's page (about bread), the
 * second a page that states it word for word. Its cited pages go in a --sources folder (SEARCH_SOURCES).
 */
const SEAL_CLAIM = 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.';
const GODREVY_CLAIM = 'Godrevy Lighthouse was built in 1859 by the engineer James Walker.';
const SEAL_ARTICLE = [
  "'''Grey seals''' breed on the coasts of Cornwall.",
  '',
  '== Population ==',
  `${SEAL_CLAIM}<ref>{{cite web |url=https://bakery.example/bread |title=Bread}}</ref>`,
  `${GODREVY_CLAIM}<ref>{{cite web |url=https://lights.example/godrevy |title=Godrevy light}}</ref>`,
  '',
].join('\n');
const SEARCH_SOURCES: Record<string, { url: string; html: string }> = {
  'bread.html': { url: 'https://bakery.example/bread', html: '<html><head><title>Bread</title></head><body><article><p>Sourdough bread rises slowly overnight in a cool kitchen.</p><p>Rye flour gives a denser loaf than wheat flour.</p></article></body></html>' },
  'godrevy.html': { url: 'https://lights.example/godrevy', html: `<html><head><title>Godrevy light</title></head><body><article><p>${GODREVY_CLAIM}</p><p>The tower stands on Godrevy Island.</p></article></body></html>` },
};

/** The text of an element the open popover must already hold (fails at once, not after a wait, when it is missing). */
async function shown(p: Page, selector: string): Promise<string> {
  return p.$eval(selector, (e) => e.textContent ?? '').catch(() => assert.fail(`nothing in the page matches ${selector}`));
}

/** The saved article, served as a wiki would serve it (another origin than the veracite server). */
async function servePage(html: string, path = '/wiki/Bodmin'): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === path) {
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
  proposedTag(v: unknown, today: Date): string | undefined;
  nothingCheckedNote(views: unknown[]): string | undefined;
  citeTemplate(s: unknown, today: Date): string;
  betterTemplate(s: unknown, today: Date): string;
  foundByText(s: unknown): string | undefined;
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

  it('bands, tags and the nothing-checked note come from the server\'s view; the gadget decides none of them', () => {
    const found = { sourceStatus: 'found', verifiability: 0.07, failedVerification: false };
    assert.equal(logic.bandOf({ ...found, band: 'supported' }), 'supported', 'the server\'s band, whatever the score');
    assert.equal(logic.bandOf({ ...found, band: 'partly-supported' }), 'partly');
    assert.equal(logic.bandOf({ ...found, band: 'needs_review' }), 'needs-review');
    assert.equal(logic.bandOf({ ...found, band: 'not supported' }), 'not-supported');
    assert.equal(logic.bandOf({ ...found, band: 'could not check' }), 'could-not-check');
    // No band (an older server): no verdict made up from the score.
    assert.equal(logic.bandOf(found), 'needs-review');
    assert.equal(logic.bandOf({ ...found, failedVerification: true }), 'needs-review');
    assert.equal(logic.bandOf({ ...found, sourceStatus: 'dead', verifiability: null }), 'could-not-check');

    const day = new Date('2025-11-03T12:00:00Z');
    assert.equal(logic.proposedTag({ ...found, band: 'not-supported' }, day), undefined, 'a low band alone proposes no tag');
    assert.equal(logic.proposedTag({ ...found, band: 'not-supported', failedVerification: true }, day), '{{failed verification|date=November 2025}}');
    assert.equal(logic.proposedTag({ ...found, failedVerification: true, proposeTag: false }, day), undefined);
    assert.equal(logic.proposedTag({ ...found, tag: '{{failed verification|date=May 2026|reason=x}}' }, day), '{{failed verification|date=May 2026|reason=x}}');
    // The one decision's tag ({template, why}), dated here with the server's reason; a decision without one proposes none.
    const why = 'the source states otherwise: 0.7% | not 7%';
    assert.equal(logic.proposedTag({ ...found, decision: { band: 'not-supported', tag: { template: 'failed verification', why } } }, day), '{{failed verification|date=November 2025|reason=veracite: the source states otherwise: 0.7% {{!}} not 7%}}');
    assert.equal(logic.proposedTag({ ...found, tag: { template: 'failed verification', why } }, day), '{{failed verification|date=November 2025|reason=veracite: the source states otherwise: 0.7% {{!}} not 7%}}');
    assert.equal(logic.proposedTag({ ...found, failedVerification: true, decision: { band: 'not-supported' } }, day), undefined);

    const unchecked = { sourceStatus: 'unverifiable', verifiability: null, band: 'could-not-check' };
    assert.match(logic.nothingCheckedNote([unchecked, unchecked]) ?? '', /^Nothing was checked: .*any of the 2 cited sources.*--fetch.*--sources FOLDER/);
    assert.equal(logic.nothingCheckedNote([unchecked, { ...found, band: 'supported' }]), undefined);
    assert.equal(logic.nothingCheckedNote([]), undefined);
  });

  it('templates: cite journal with identifiers, cite web with an access date, a dated failed-verification tag', () => {
    const day = new Date('2025-11-03T12:00:00Z');
    assert.equal(logic.citeTemplate({ title: 'A | B', url: 'https://doi.org/10.1000/xyz.1' }, day), '{{cite journal |title=A {{!}} B |doi=10.1000/xyz.1}}');
    assert.equal(logic.citeTemplate({ title: 'T', url: 'https://pubmed.ncbi.nlm.nih.gov/29876543/' }, day), '{{cite journal |title=T |pmid=29876543}}');
    assert.equal(logic.citeTemplate({ title: 'P', url: 'https://arxiv.org/abs/2104.01234v2' }, day), '{{cite arXiv |eprint=2104.01234 |title=P}}');
    // Braces are kept as character references: shown as typed, they open or close nothing (cite-template-inert.test.ts).
    assert.equal(logic.citeTemplate({ title: 'Page }} x', url: 'https://example.org/a' }, day), '{{cite web |url=https://example.org/a |title=Page &#125;&#125; x |access-date=2025-11-03}}');
    assert.equal(logic.failedVerificationTag(day), '{{failed verification|date=November 2025}}');
  });

  it('a source found by search: the server\'s citation (authors, journal, access date) and who found it; an index\'s document: one made here', () => {
    const day = new Date('2025-11-03T12:00:00Z');
    const server = '{{cite journal |author1=Ann Trewin |title=Grey seal pups |journal=J. Coastal Ecol. |doi=10.5555/seal.pups.2022 |access-date=2025-10-30}}';
    const found = { title: 'Grey seal pups', url: 'https://doi.org/10.5555/seal.pups.2022', template: server, foundBy: { provider: 'openalex', label: 'OpenAlex search', query: 'grey seal pup Cornwall', rank: 1 } };
    assert.equal(logic.betterTemplate(found, day), server);
    assert.equal(logic.foundByText(found), 'Found by OpenAlex search for \u201Cgrey seal pup Cornwall\u201D');
    assert.equal(logic.foundByText({ ...found, foundBy: { provider: 'crossref', query: 'q' } }), 'Found by crossref for \u201Cq\u201D', 'a server without labels: the provider\'s name');
    // No template from the server, or something that is not a citation template: made here from title and URL.
    assert.equal(logic.betterTemplate({ title: 'Grey seal pups', url: 'https://doi.org/10.5555/seal.pups.2022' }, day), '{{cite journal |title=Grey seal pups |doi=10.5555/seal.pups.2022}}');
    assert.equal(logic.betterTemplate({ ...found, template: '<script>x</script>' }, day), '{{cite journal |title=Grey seal pups |doi=10.5555/seal.pups.2022}}');
    assert.equal(logic.foundByText({ title: 'Indexed', url: 'https://example.org/a' }), undefined);
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
  let sealPage: { url: string; close(): Promise<void> };
  let apis: SearchApiServer;
  let searchServer: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let gadget: string;

  before(async () => {
    const html = await readFile(ARTICLE, 'utf8');
    gadget = await readFile(GADGET, 'utf8');
    const sealHtml = renderWikiPage(parseWikitext(SEAL_ARTICLE, { title: 'Grey seal' }), { banner: 'veracite test article' });
    [ix, page, other, sealPage, apis, browser] = await Promise.all([makeTestIndex('veracite-gadget-'), servePage(html), servePage(html), servePage(sealHtml, '/wiki/Grey_seal'), startSearchApiServer(), launchBrowser()]);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: page.url });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sealPage.url });
    real = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'real'), token: TOKEN, allowOrigins: [page.url] });
    scriptedServer = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'scripted'), token: TOKEN, allowOrigins: [page.url] }, () => new ScriptedAudit());
    // As `veracite serve --sources DIR --suggest-from search --search openalex,crossref --api-base openalex=...,crossref=...`:
    // OpenAlex answers on loopback, Crossref cannot be reached (port 9), abstracts only (no page fetched).
    const sources = join(ix.root, 'search-sources');
    await mkdir(sources);
    for (const [name, s] of Object.entries(SEARCH_SOURCES)) await writeFile(join(sources, name), s.html);
    await writeFile(join(sources, 'manifest.jsonl'), Object.entries(SEARCH_SOURCES).map(([name, s]) => `${JSON.stringify({ url: s.url, path: name })}\n`).join(''));
    searchServer = await startTestServer(ix.index, fakeModels(), {
      dataDir: join(ix.root, 'search'),
      token: TOKEN,
      allowOrigins: [sealPage.url],
      settings: {
        sources: { folder: sources, apis: { openalex: apis.bases.openalex, crossref: 'http://127.0.0.1:9' }, apiIntervalMs: 0, cache: join(ix.root, 'search-cache'), timeoutMs: 2000 },
        // No --threshold: the lexical scorer's calibration gives a probability of support, hence real bands.
        search: { suggestFrom: 'search', providers: ['openalex', 'crossref'], maxFetches: 0 },
      },
    });
  });

  after(async () => {
    await browser?.close();
    await real?.close();
    await scriptedServer?.close();
    await searchServer?.close();
    await page?.close();
    await other?.close();
    await sealPage?.close();
    await apis?.close();
    await ix?.cleanup();
  });

  /**
   * Opens the article, records every request the page makes, injects the gadget and starts it. With
   * `askToken`, the token is not in the settings: the gadget asks for it and the editor pastes it
   * (`prompts` holds what was asked).
   */
  async function openWithGadget(base: string, server: string, o: { askToken?: boolean; viewport?: { width: number; height: number }; path?: string } = {}): Promise<{ p: Page; requests: { method: string; url: string }[]; prompts: string[] }> {
    const p = await browser.context.newPage();
    if (o.viewport) await p.setViewportSize(o.viewport);
    p.on('pageerror', (e) => assert.fail(`error in the page: ${e.message}`));
    const requests: { method: string; url: string }[] = [];
    p.on('request', (r) => requests.push({ method: r.method(), url: r.url() }));
    const prompts: string[] = [];
    p.on('dialog', (d) => {
      prompts.push(d.message());
      void d.accept(TOKEN);
    });
    await p.goto(`${base}${o.path ?? '/wiki/Bodmin'}`);
    await p.evaluate(([s, t]) => {
      (globalThis as unknown as { veraciteGadgetConfig: unknown }).veraciteGadgetConfig = { server: s, ...(t ? { token: t } : {}), autorun: false };
    }, [server, o.askToken ? '' : TOKEN]);
    await p.addScriptTag({ content: gadget }); // a classic script, as common.js and a bookmarklet run it
    await p.click('#veracite-run');
    return { p, requests, prompts };
  }

  it('with the real audit: every prose footnote is marked in place, the others are not; nothing is written to the page\'s origin; with no source readable, the panel names the flags', async () => {
    const { p, requests, prompts } = await openWithGadget(page.url, real.url, { askToken: true });
    await p.waitForSelector('#veracite-panel[data-status="done"]', { timeout: 60_000 });
    const marks = await p.$$eval('.veracite-mark[data-citation]', (els) => els.map((e) => ({ band: e.getAttribute('data-band'), note: e.getAttribute('data-note'), after: e.previousElementSibling?.matches('sup.reference') ?? false, inTable: !!e.closest('table, figure') })));
    assert.equal(marks.length, 10, JSON.stringify(marks));
    assert.ok(marks.every((m) => m.after && !m.inTable), 'each right after its footnote marker, none in the infobox or a figure');
    assert.ok(marks.every((m) => m.band === 'could-not-check'), 'sources are not fetched by this server: could not check');
    assert.deepEqual(marks.map((m) => m.note), ['cite_note-2', 'cite_note-3', 'cite_note-census-1', 'cite_note-4', 'cite_note-5', 'cite_note-6', 'cite_note-7', 'cite_note-rebellion-9', 'cite_note-10', 'cite_note-rebellion-9']);
    assert.equal(await p.$$eval('table .veracite-mark, figure .veracite-mark', (e) => e.length), 0);
    assert.match((await p.textContent('#veracite-status')) ?? '', /Done: 10 citations, 10 marked/);
    // Nothing could be read: the panel says why and which flag to start the server with.
    const note = (await p.textContent('#veracite-notice')) ?? '';
    assert.match(note, /^Nothing was checked: the server could not read any of the 10 cited sources\..*--fetch.*--sources FOLDER/);
    assert.equal(await p.isVisible('#veracite-notice'), true);
    // The token was asked for in an editor's words: what it is and where it comes from, no HTTP.
    assert.equal(prompts.length, 1, JSON.stringify(prompts));
    assert.match(prompts[0]!, /veracite serve/);
    assert.match(prompts[0]!, /--token/);
    assert.doesNotMatch(prompts[0]!.replace(real.url, '<server>'), /HTTP|Bearer|401|header|unauthori[sz]ed/i);
    await p.click('.veracite-mark[data-citation]');
    assert.match((await p.textContent('#veracite-popover .veracite-unchecked')) ?? '', /Could not be read/);
    assert.match((await p.textContent('#veracite-popover .veracite-how')) ?? '', /^To check it: /);
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
    // The popover and the marker's label name the citation by the page's own footnote number.
    const note = await p.getAttribute('.veracite-mark[data-citation="Bodmin#1"]', 'data-note');
    const footnote = ((await p.$eval(`sup.reference a[href="#${note}"]`, (a) => a.textContent)) ?? '').replace(/\s+/g, '');
    assert.match(footnote, /^\[\d+\]$/);
    assert.equal((await p.textContent('#veracite-popover .veracite-number'))?.trim(), footnote);
    assert.match((await p.getAttribute('.veracite-mark[data-citation="Bodmin#1"]', 'aria-label')) ?? '', new RegExp(`^veracite: citation \\[${footnote.slice(1, -1)}\\], not supported`));
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

    // Needs review, not flagged by the server: no tag proposed.
    await p.keyboard.press('Escape');
    await p.click('.veracite-mark[data-citation="Bodmin#6"]');
    assert.equal(await p.getAttribute('#veracite-popover', 'data-band'), 'needs-review');
    assert.match((await p.textContent('#veracite-popover .veracite-why')) ?? '', /Why this band: too close to call/);
    assert.equal(await p.$$eval('#veracite-popover .veracite-tag', (e) => e.length), 0);

    // The article's own footnotes still work and the page text is unchanged but for the markers.
    assert.equal(await p.$$eval('sup.reference', (e) => e.length), 12);
    await p.close();
  });

  for (const viewport of [{ width: 1280, height: 900 }, { width: 420, height: 800 }]) {
    it(`at ${viewport.width}x${viewport.height}: the panel leaves the title uncovered; the popover stays inside the viewport beside its marker's line wherever the marker is, and scrolls inside when long`, async () => {
      const { p } = await openWithGadget(page.url, scriptedServer.url, { viewport });
      await p.waitForSelector('#veracite-panel[data-status="done"]', { timeout: 60_000 });
      // The panel never covers the article's title (issue 46 item 5), at the top of the page as it opens.
      const title = (await p.locator('#firstHeading').boundingBox())!;
      const panel = (await p.locator('#veracite-panel').boundingBox())!;
      const overlap = !(panel.x >= title.x + title.width || panel.x + panel.width <= title.x || panel.y >= title.y + title.height || panel.y + panel.height <= title.y);
      assert.ok(!overlap, `the panel (${JSON.stringify(panel)}) covers the title (${JSON.stringify(title)})`);
      // Room above and below the article, so that any marker can be scrolled to any height.
      await p.evaluate(() => {
        (globalThis as unknown as { document: { body: { style: { padding: string } } } }).document.body.style.padding = '1200px 0';
      });
      const cases: { id: string; y: number }[] = [];
      // 0: supported (short); 1: not supported, better source and tag (tall); 5: taller than the viewport.
      for (const id of ['Bodmin#0', 'Bodmin#1', 'Bodmin#5']) for (const y of [24, Math.round(viewport.height / 2), viewport.height - 36]) cases.push({ id, y });
      for (const { id, y } of cases) {
        const got = await p.evaluate(([citation, at]) => {
          type Rect = { left: number; right: number; top: number; bottom: number };
          interface El { getBoundingClientRect(): Rect; click(): void; scrollHeight: number; clientHeight: number }
          const g = globalThis as unknown as { document: { querySelector(s: string): El | null; documentElement: { clientWidth: number; clientHeight: number } }; scrollBy(x: number, y: number): void; getComputedStyle(e: El): { overflowY: string } };
          const mark = g.document.querySelector(`.veracite-mark[data-citation="${citation}"]`)!;
          g.scrollBy(0, mark.getBoundingClientRect().top - Number(at));
          mark.click();
          const pop = g.document.querySelector('#veracite-popover')!;
          const [pr, mr] = [pop.getBoundingClientRect(), mark.getBoundingClientRect()];
          // Plain numbers (no helper functions here: the page runs this code as written)
          return { pop: { left: pr.left, right: pr.right, top: pr.top, bottom: pr.bottom }, mark: { left: mr.left, right: mr.right, top: mr.top, bottom: mr.bottom }, vw: g.document.documentElement.clientWidth, vh: g.document.documentElement.clientHeight, scrollHeight: pop.scrollHeight, clientHeight: pop.clientHeight, overflowY: g.getComputedStyle(pop).overflowY };
        }, [id, y] as const);
        const where = `${id} with its marker at y=${Math.round(got.mark.top)}: ${JSON.stringify(got)}`;
        assert.ok(got.pop.left >= 0 && got.pop.top >= 0 && got.pop.right <= got.vw + 0.5 && got.pop.bottom <= got.vh + 0.5, `popover inside the viewport: ${where}`);
        assert.ok(got.pop.bottom <= got.mark.top || got.pop.top >= got.mark.bottom, `popover beside the marker's line, not over it: ${where}`);
        if (got.scrollHeight > got.clientHeight + 1) assert.equal(got.overflowY, 'auto', `a long popover scrolls inside: ${where}`);
        if (id === 'Bodmin#5') assert.ok(got.scrollHeight > got.clientHeight + 1, `the long popover is cut to the viewport and scrolls: ${where}`);
        await p.keyboard.press('Escape');
      }
      if (viewport.width === 420) await p.screenshot({ path: join(process.cwd(), 'test-artifacts', 'wiki-gadget-420.png') });
      await p.close();
    });
  }

  it('a marker never wraps away from its footnote, at any column width (and would without the gadget\'s nowrap)', async () => {
    const { p } = await openWithGadget(page.url, scriptedServer.url, { viewport: { width: 420, height: 800 } });
    await p.waitForSelector('#veracite-panel[data-status="done"]', { timeout: 60_000 });
    /** Column widths (px) at which some marker starts a line its footnote does not end. */
    const sweep = (firstOnly: boolean) =>
      p.evaluate((stopAtFirst) => {
        type Rect = { left: number; right: number; top: number; bottom: number };
        interface El { getBoundingClientRect(): Rect; previousElementSibling: El | null; style: { width: string }; getAttribute(n: string): string | null }
        const d = (globalThis as unknown as { document: { querySelector(s: string): El; querySelectorAll(s: string): Iterable<El> } }).document;
        const column = d.querySelector('.mw-parser-output');
        const marks = [...(d.querySelectorAll('.veracite-mark[data-citation]') as unknown as El[])];
        const wrapped: string[] = [];
        for (let w = 160; w <= 900; w += 5) {
          column.style.width = `${w}px`;
          for (const m of marks) {
            const a = m.previousElementSibling!.getBoundingClientRect();
            const b = m.getBoundingClientRect();
            const sameLine = b.left >= a.right - 1 && b.top < a.bottom && a.top < b.bottom;
            if (!sameLine) wrapped.push(`${w}px ${m.getAttribute('data-citation')}`);
          }
          if (stopAtFirst && wrapped.length) break;
        }
        column.style.width = '';
        return wrapped;
      }, firstOnly);
    assert.deepEqual(await sweep(false), [], 'marker and footnote on one line box at every width from 160 to 900 px (5 px steps)');
    // The same sweep with the gadget's one rule switched off finds wraps: the check can see them.
    await p.addStyleTag({ content: '.veracite-ref{white-space:normal !important}' });
    assert.ok((await sweep(true)).length > 0, 'without white-space:nowrap a marker wraps away at some width');
    await p.close();
  });

  for (const viewport of [{ width: 1280, height: 900 }, { width: 420, height: 800 }]) {
    it(`better sources from search (serve --suggest-from search), ${viewport.width}x${viewport.height}: the failed citation's popover shows the paper a loopback OpenAlex found, who found it and the server's {{cite journal}} with its access date; the supported one gets none`, async () => {
      const { p, requests } = await openWithGadget(sealPage.url, searchServer.url, { path: '/wiki/Grey_seal', viewport });
      await p.waitForSelector('#veracite-panel[data-status="done"]', { timeout: 60_000 });
      const marks = await p.$$eval('.veracite-mark[data-citation]', (els) => els.map((e) => ({ id: e.getAttribute('data-citation'), band: e.getAttribute('data-band') })));
      assert.equal(marks.length, 2, JSON.stringify(marks));
      const [wrong, right] = marks;
      assert.equal(wrong!.band, 'not-supported', 'the bakery page does not support the seal claim');
      assert.equal(right!.band, 'supported', 'the lighthouse page states its claim');

      await p.click(`.veracite-mark[data-citation="${wrong!.id}"]`);
      await p.waitForSelector('#veracite-popover');
      assert.match((await p.textContent('#veracite-popover .veracite-claim')) ?? '', /Grey seal pup production in Cornwall rose by a fifth/);
      // The better source: the paper the loopback OpenAlex answered with (a DOI link), and who found it with which query.
      const link = await p.$eval('#veracite-popover .veracite-better a', (a) => ({ href: a.getAttribute('href'), text: a.textContent }));
      assert.deepEqual(link, { href: 'https://doi.org/10.5555/seal.pups.2022', text: 'Grey seal pup production in Cornwall, 2016-2021' });
      assert.match(await shown(p, '#veracite-popover .veracite-better .veracite-found-by'), /^Found by OpenAlex search for “[^”]*seal[^”]*”$/);
      assert.match(await shown(p, '#veracite-popover .veracite-better .veracite-evidence'), /rose by a fifth/);
      // The server's citation (authors, journal, date, identifiers from the OpenAlex answer, the day the text was read), not one made in the page.
      const cite = await p.inputValue('#veracite-popover .veracite-better textarea.veracite-cite');
      assert.match(cite, /^\{\{cite journal \|author1=Ann Trewin \|author2=Peter Hosking \|title=Grey seal pup production in Cornwall, 2016-2021 \|journal=Journal of Coastal Ecology \|date=2022-01-15 \|doi=10\.5555\/seal\.pups\.2022 \|pmid=35000001 \|access-date=\d{4}-\d{2}-\d{2}\}\}$/);
      await p.click('#veracite-popover .veracite-better .veracite-copy');
      await p.waitForSelector('#veracite-popover .veracite-better .veracite-copy[data-copied="true"]');
      assert.equal(await p.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), cite);
      // The provider that could not be reached is named, not dropped.
      assert.match(await shown(p, '#veracite-popover .veracite-search-failed'), /Crossref search: could not reach 127\.0\.0\.1:9/);
      // Inside the viewport, beside its marker's line.
      const fit = await p.evaluate((citation) => {
        type Rect = { left: number; right: number; top: number; bottom: number };
        const d = (globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): Rect }; documentElement: { clientWidth: number; clientHeight: number } } }).document;
        const [pr, mr] = [d.querySelector('#veracite-popover').getBoundingClientRect(), d.querySelector(`.veracite-mark[data-citation="${citation}"]`).getBoundingClientRect()];
        return { pop: { left: pr.left, right: pr.right, top: pr.top, bottom: pr.bottom }, mark: { top: mr.top, bottom: mr.bottom }, vw: d.documentElement.clientWidth, vh: d.documentElement.clientHeight };
      }, wrong!.id!);
      assert.ok(fit.pop.left >= 0 && fit.pop.top >= 0 && fit.pop.right <= fit.vw + 0.5 && fit.pop.bottom <= fit.vh + 0.5, `popover inside the viewport: ${JSON.stringify(fit)}`);
      assert.ok(fit.pop.bottom <= fit.mark.top || fit.pop.top >= fit.mark.bottom, `popover beside the marker's line: ${JSON.stringify(fit)}`);
      if (viewport.width === 1280) await p.screenshot({ path: join(process.cwd(), 'test-artifacts', 'wiki-gadget-search.png') });

      // The supported citation: no better source, no failure note, no tag.
      await p.keyboard.press('Escape');
      await p.click(`.veracite-mark[data-citation="${right!.id}"]`);
      assert.equal(await p.getAttribute('#veracite-popover', 'data-band'), 'supported');
      assert.equal(await p.$$eval('#veracite-popover .veracite-better, #veracite-popover .veracite-search-failed, #veracite-popover .veracite-tag', (e) => e.length), 0);
      // Search went through the server, never from the page: the browser asked nothing of the providers.
      assert.ok(!requests.some((r) => r.url.startsWith(apis.origin)));
      assert.ok(apis.hits.some((h) => h.startsWith('/openalex/works?')), JSON.stringify(apis.hits));
      await p.close();
    });
  }

  it('a page from an origin the server does not allow gets nothing, and says how to allow it', async () => {
    const { p } = await openWithGadget(other.url, scriptedServer.url);
    await p.waitForSelector('#veracite-panel[data-status="error"]', { timeout: 30_000 });
    assert.match((await p.textContent('#veracite-error')) ?? '', /Cannot reach .*--allow-origin http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(await p.$$eval('.veracite-mark[data-citation]', (e) => e.length), 0);
    await p.close();
  });
});
