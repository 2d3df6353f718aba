/**
 * Browser tests of the page's own behaviour (issue 13): human messages, no stray "null", the score
 * chart, evidence coloured by role with a legend, the comparison screen explaining itself, and the blind
 * comparison's keys (A / B / N, S skip, U undo). Debian's Chromium against a test server: the SciFact
 * sample index, fake verification models (instant) and the real citation audit with its lexical scorer.
 * Leaves screenshots in test-artifacts/.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { AnnotationSchema } from '../../src/annotations/types.js';
import type { RunningServer } from '../../src/server/start.js';
import { fakeModels } from '../../src/server/testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from '../../src/server/testing/harness.js';
import { sampleUrl, supportedClaims } from '../../src/server/testing/sample-index.js';
import { chromiumMissing, launchBrowser } from './browser.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts');

interface PageGlobals {
  document: { getElementById(id: string): { textContent: string | null } | null };
}
const textOf = (id: string) => (globalThis as unknown as PageGlobals).document.getElementById(id)?.textContent ?? '';

async function audit(url: string, wikitext: string, title: string): Promise<string> {
  const res = await postJson(`${url}/v1/audits`, { wikitext, title });
  assert.equal(res.status, 202, await res.clone().text());
  const { id } = (await res.json()) as { id: string };
  for (let i = 0; i < 400; i++) {
    const job = (await (await fetch(`${url}/v1/audits/${id}`)).json()) as { status: string };
    if (job.status === 'done') return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`audit ${id} did not finish`);
}

async function shot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(join(ARTIFACTS, '.gitignore'), '*\n');
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
}

const skip = chromiumMissing();
describe('web page (Chromium): messages, highlighting, chart, comparison keys', { skip: skip ?? false }, () => {
  let ix: TestIndex;
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  before(async () => {
    ix = await makeTestIndex('veracite-web-page-');
    [server, browser] = await Promise.all([startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'data') }), launchBrowser()]);
    page = await browser.context.newPage();
    page.on('pageerror', (e) => assert.fail(`error in the page: ${e.message}`));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await ix?.cleanup();
  });

  it('an empty audit says what to do, in words, and sends nothing', async () => {
    let posted = 0;
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/v1/audits') && posted++);
    await page.goto(`${server.url}/#/audit`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('#audit-submit');
    assert.equal(await page.textContent('#audit-error'), "Paste the article's wikitext into the box first.");
    await page.fill('#audit-text', '   \n ');
    await page.click('#audit-submit');
    assert.equal(await page.textContent('#audit-error'), "Paste the article's wikitext into the box first.");
    assert.equal(posted, 0);
    assert.doesNotMatch((await page.textContent('#service-status')) ?? '', /@@/);
  });

  it('a citation without context shows no "null"; evidence carries roles with a legend; the chart shows every scored citation', async () => {
    const claim = supportedClaims()[0]!;
    // One citation, first in its section: no context sentences.
    const id = await audit(server.url, `${claim.claim}<ref>{{cite journal |title=Gold |url=${sampleUrl(claim.docId)}}}</ref>\n`, 'No context');
    await page.goto(`${server.url}/#/audit/${id}`);
    await page.waitForSelector('#audit-run[data-status="done"]');
    await page.click('#citation-table tbody tr:first-child button');
    await page.waitForSelector('#citation-detail:not([hidden]) .side-by-side');
    const detail = (await page.textContent('#citation-detail')) ?? '';
    assert.doesNotMatch(detail, /\bnull\b/);
    assert.equal(await page.locator('#citation-detail details').count(), 1, 'one details box, the diagnostics');
    assert.doesNotMatch(detail, /Context:/, 'no context when there is none');
    assert.ok((await page.locator('#citation-detail .ev[data-role]').count()) > 0);
    assert.equal(await page.locator('#citation-detail .legend').count(), 1);
    assert.ok((await page.locator('#citation-detail .ev mark').count()) > 0, 'claim words marked in the evidence');
    assert.match((await page.getAttribute('#score-chart svg', 'aria-label')) ?? '', /^Score distribution of 1 scored citations, [01] flagged$/);
  });

  it('a report read at a glance: citations numbered as in the article, one number and one line each, diagnostics folded, the to-do list to download', async () => {
    // Every claim cites the next claim's abstract (wrong pages), one cites a page that cannot be read.
    const claims = supportedClaims().slice(0, 5);
    const wikitext = claims.map((c, i) => `${c.claim.replace(/\.?\s*$/, '.')}<ref>{{cite journal |title=Study ${i + 1} |url=${sampleUrl(claims[(i + 1) % claims.length]!.docId)}}}</ref>`).join(' ');
    const id = await audit(server.url, `== Findings ==\n${wikitext} Unread claim.<ref>{{cite web |url=https://not-indexed.example/x |title=X}}</ref>\n`, 'At a glance');
    const job = (await (await fetch(`${server.url}/v1/audits/${id}`)).json()) as { results: { index: number; number?: number; failedVerification: boolean; verifiability: number | null }[] };
    assert.ok(job.results.every((r) => r.number === r.index + 1), 'the API gives the number in the article');
    await page.goto(`${server.url}/#/audit/${id}`);
    await page.waitForSelector('#audit-run[data-status="done"]');
    const rows = await page.locator('#citation-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({ num: tr.children[0]!.textContent, score: tr.children[3]!.textContent ?? '' })));
    assert.equal(rows.length, job.results.length);
    assert.deepEqual(rows.map((r) => r.num).sort(), job.results.map((r) => `#${r.index + 1}`).sort());
    for (const r of rows) assert.ok((r.score.match(/\d\.\d\d/g) ?? []).length <= 1, `one number: ${r.score}`);
    assert.doesNotMatch(rows.map((r) => r.score).join(' '), /failed verification/);
    // The to-do links: there exactly when something is flagged, holding the CLI's CSV.
    const flagged = job.results.filter((r) => r.failedVerification).sort((a, b) => a.index - b.index);
    assert.equal(await page.isVisible('#audit-todo'), flagged.length > 0);
    if (flagged.length) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#audit-todo a.download >> nth=0')]);
      const csv = { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
      assert.equal(csv.name, 'At_a_glance-todo.csv');
      assert.deepEqual(csv.text.trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[0]), flagged.map((r) => `#${r.index + 1}`));
    }
    await page.click('#citation-table tbody tr:first-child button');
    await page.waitForSelector('#citation-detail:not([hidden]) .verdict-line');
    const first = job.results.find((r) => r.verifiability !== null)!;
    assert.ok(first);
    assert.match((await page.textContent('#citation-detail h3')) ?? '', /^#\d+/);
    const line = (await page.textContent('#citation-detail .verdict-line')) ?? '';
    assert.ok((line.match(/\d\.\d\d/g) ?? []).length <= 1, line);
    assert.match(line, /supports|support|close to call|contradict|Could not check/);
    assert.equal(await page.locator('#citation-detail details.diag[open]').count(), 0, 'diagnostics start folded');
    assert.equal(await page.isVisible('#citation-detail details.diag li'), false);
    await shot(page, 'web-audit-glance.png');
    await page.click('#citation-detail details.diag > summary');
    assert.match((await page.textContent('#citation-detail details.diag')) ?? '', /Why this band: /);
    await shot(page, 'web-audit-glance-details.png');
  });

  it('right after an audit with nothing to compare, the comparison screen says why', async () => {
    const id = await audit(server.url, 'Vitamin D deficiency is common.<ref>{{cite web |url=https://not-indexed.example/x |title=X}}</ref>\n', 'Nothing to compare');
    await page.goto(`${server.url}/#/audit/${id}`);
    await page.waitForSelector('#audit-run[data-status="done"]');
    await page.click('#audit-compare-link');
    await page.waitForFunction(textOf, 'compare-status');
    await page.waitForFunction(() => /has no pair to compare/.test(((globalThis as unknown as PageGlobals).document.getElementById('compare-status')?.textContent) ?? ''));
    const status = (await page.textContent('#compare-status')) ?? '';
    assert.match(status, /of its 1 citation, 0 had a cited source the server could read/);
    assert.doesNotMatch(status, /Audit an article first/);
  });

  it('blind comparison by keys: B then U (undo), S (skip), N and A; the held choice is sent, the undone one never', async () => {
    // Every claim cites the next claim's abstract: each citation has a readable source and a better one to suggest.
    const claims = supportedClaims().slice(0, 6);
    const wikitext = claims.map((c, i) => `${c.claim.replace(/\.?\s*$/, '.')}<ref>{{cite journal |title=Study ${i + 1} |url=${sampleUrl(claims[(i + 1) % claims.length]!.docId)}}}</ref>`).join(' ');
    const id = await audit(server.url, `== Findings ==\n${wikitext}\n`, 'Shifted citations');
    const pairs = (await (await fetch(`${server.url}/v1/comparisons/next?job=${id}`)).json()) as { remaining: number };
    assert.ok(pairs.remaining >= 3, `needs three pairs, the audit gave ${pairs.remaining}`);
    await page.goto(`${server.url}/#/compare/${id}`);
    await page.waitForSelector('#compare-box:not([hidden])');
    await page.waitForSelector('#compare-keys-undo:not([hidden])');
    const claimNow = async () => (await page.textContent('#compare-claim')) ?? '';
    const first = await claimNow();
    assert.ok((await page.locator('#compare-box .ev[data-role]').count()) > 0, 'evidence coloured on both sides');

    await page.keyboard.press('b');
    await page.waitForFunction((c) => (globalThis as unknown as PageGlobals).document.getElementById('compare-claim')?.textContent !== c, first);
    assert.match((await page.textContent('#compare-status')) ?? '', /You chose: B supports it better/);
    await page.keyboard.press('u');
    await page.waitForFunction((c) => (globalThis as unknown as PageGlobals).document.getElementById('compare-claim')?.textContent === c, first);
    assert.match((await page.textContent('#compare-status')) ?? '', /Undone: "B supports it better" was not saved/);

    await page.keyboard.press('s');
    await page.waitForFunction((c) => (globalThis as unknown as PageGlobals).document.getElementById('compare-claim')?.textContent !== c, first);
    const second = await claimNow();
    assert.match((await page.textContent('#compare-remaining')) ?? '', /\(1 skipped\)/);
    await page.keyboard.press('n');
    await page.waitForFunction((c) => (globalThis as unknown as PageGlobals).document.getElementById('compare-claim')?.textContent !== c, second);
    await shot(page, 'web-compare-keys.png');
    await page.keyboard.press('a'); // sends the held "neither" now, holds "A"
    await page.waitForFunction(() => /Saved: .*neither supports it/.test(((globalThis as unknown as PageGlobals).document.getElementById('compare-saved')?.textContent) ?? ''));
    await page.waitForFunction(() => /Saved: .*A supports it better/.test(((globalThis as unknown as PageGlobals).document.getElementById('compare-saved')?.textContent) ?? ''), undefined, { timeout: 15_000 });

    const lines = (await (await fetch(`${server.url}/v1/annotations.jsonl`)).text()).trim().split('\n').map((l) => AnnotationSchema.parse(JSON.parse(l)));
    assert.deepEqual(lines.map((a) => a.choice), ['neither', 'A']);
    assert.equal(lines[0]!.claim, second);
    assert.ok(!lines.some((a) => a.claim === first && a.choice === 'B'), 'the undone choice was never sent');
  });

  it('the claim page colours evidence by support / contradiction when the verdict gives them', async () => {
    await page.goto(`${server.url}/#/claim`);
    await page.fill('#claim-input', supportedClaims()[4]!.claim);
    await page.click('#claim-submit');
    await page.waitForSelector('#verdict-label');
    const roles = await page.$$eval('#claim-result .ev[data-role]', (els) => els.map((e) => e.getAttribute('data-role')));
    assert.ok(roles.length > 0);
    // this verifier gives per-sentence entailment, so the roles are about agreement, not mere relevance
    assert.ok(roles.every((r) => r === 'supports' || r === 'contradicts' || r === 'neutral'), roles.join(','));
    assert.equal(await page.locator('#claim-result .legend').count(), 1);
    await shot(page, 'web-claim-roles.png');
  });
});
