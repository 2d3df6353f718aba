/**
 * The browser tests, written once and run by web.test.ts on the real default pipeline. Each flow is what
 * an editor does: check a claim, audit an article while its progress bar moves, annotate a blind pair,
 * then find the annotation in the export after a server restart.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import type { Page } from 'playwright-core';
import { registerServeCommand } from '../../src/cli/command-serve.js';
import { AnnotationSchema } from '../../src/annotations/types.js';
import type { RunningServer } from '../../src/server/start.js';
import { makeTestIndex, type TestIndex } from '../../src/server/testing/harness.js';
import { auditArticle, supportedClaims } from '../../src/server/testing/sample-index.js';
import { chromiumMissing, launchBrowser } from './browser.js';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts');

export interface E2eSetup {
  /** Starts (or restarts) the server on `index` with its data in `dataDir`. */
  start(index: string, dataDir: string): Promise<RunningServer>;
  /** Loads the models once, before the first start (not timed by any test). */
  prepare?(): Promise<void>;
}

/** The page globals the in-page callbacks use (the project compiles without the DOM library). */
interface PageGlobals {
  document: { getElementById(id: string): { textContent: string | null } | null };
  MutationObserver: new (cb: (records: { attributeName: string | null; oldValue: string | null }[]) => void) => { observe(target: unknown, opts: object): void };
  progressValues: number[];
}

/** Every value the progress bar took, recorded in the page by a MutationObserver. */
async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const bar = g.document.getElementById('audit-progress')!;
    g.progressValues = [];
    new g.MutationObserver((records) => {
      for (const r of records) if (r.attributeName === 'value' && r.oldValue !== null) g.progressValues.push(Number(r.oldValue));
    }).observe(bar, { attributes: true, attributeOldValue: true, attributeFilter: ['value'] });
  });
}

export function defineWebTests(setup: E2eSetup): void {
  const skip = chromiumMissing();
  describe('web interface (Chromium)', { skip: skip ?? false }, () => {
    let ix: TestIndex;
    let server: RunningServer;
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let page: Page;
    let dataDir: string;
    let jobId = '';
    let annotatedClaim = '';

    before(async () => {
      ix = await makeTestIndex('veracite-e2e-');
      dataDir = join(ix.root, 'server-data');
      await setup.prepare?.();
      [server, browser] = await Promise.all([setup.start(ix.index, dataDir), launchBrowser()]);
      page = await browser.context.newPage();
      page.on('pageerror', (e) => assert.fail(`error in the page: ${e.message}`));
    });

    after(async () => {
      await browser?.close();
      await server?.close();
      await ix?.cleanup();
    });

    it('checks a claim: verdict, confidence, highlighted evidence', async () => {
      const claim = supportedClaims()[4]!.claim;
      await page.goto(`${server.url}/#/claim`);
      await page.waitForSelector('body[data-ready="true"]');
      assert.match((await page.textContent('#service-status')) ?? '', /1,000 documents/);
      await page.fill('#claim-input', claim);
      await page.click('#claim-submit');
      const label = await page.waitForSelector('#verdict-label', { timeout: 30_000 });
      assert.match((await label.textContent()) ?? '', /^(SUPPORTS|REFUTES|NOT ENOUGH INFO)$/);
      assert.match((await page.textContent('.verdict .confidence')) ?? '', /confidence \d\.\d\d/);
      assert.ok((await page.locator('#claim-result .ev[data-role]').count()) > 0, 'evidence sentences are coloured by their role');
      assert.ok((await page.locator('#claim-result .legend').count()) === 1, 'with a legend');
      // Evidence from several documents, each judged alone: the one that decided is marked, once.
      const sources = await page.locator('#claim-result article.source').count();
      assert.equal(await page.locator('#claim-result .decided').count(), sources > 1 ? 1 : 0, `${sources} source documents`);
      // ...and it says what it names of the claim.
      const decided = await page.locator('#claim-result .decided').count();
      assert.equal(await page.locator('#claim-result .coverage').count(), decided);
      if (decided) assert.match((await page.textContent('#claim-result .coverage')) ?? '', /^This document names (all \d+|\d+ of the claim's \d+) /);
      // Each decided document says the band and number check gives the same pair (issue 36: one decision).
      const decisions = await page.locator('#claim-result .hint.decision').allTextContents();
      assert.ok(decisions.length >= 1 && decisions.length <= 3, `${decisions.length} document decisions`);
      for (const d of decisions) assert.match(d, /^(supported|partly supported|needs review|not supported)( · P\(supports\) \d\.\d\d)? as a citation of this claim: \S/);
      // A verdict that takes a side says what the evidence makes of the claim's opposite; NOT ENOUGH INFO does not.
      const opposite = await page.locator('#claim-result .opposite').count();
      if (/NOT ENOUGH INFO/.test((await label.textContent()) ?? '')) assert.equal(opposite, 0);
      else assert.ok(opposite <= 1, `${opposite} opposite lines`);
      if (opposite) assert.match((await page.textContent('#claim-result .opposite')) ?? '', /^Read against its opposite, “.+”: entailment \d\.\d\d, the claim \d\.\d\d/);
    });

    it('audits an article with a live progress bar and a table sorted least verifiable first', async () => {
      const art = auditArticle(6);
      await page.goto(`${server.url}/#/audit`);
      await page.fill('#audit-title', art.title);
      await page.fill('#audit-text', art.wikitext);
      await watchProgress(page);
      await page.click('#audit-submit');
      await page.waitForSelector('#audit-run[data-status="done"]', { timeout: 90_000 });
      jobId = page.url().split('/').pop()!;

      const final = Number(await page.getAttribute('#audit-progress', 'value'));
      const max = Number(await page.getAttribute('#audit-progress', 'max'));
      const seen = [...(await page.evaluate(() => (globalThis as unknown as PageGlobals).progressValues)), final];
      assert.equal(max, 6);
      assert.equal(final, 6);
      assert.ok(seen.some((v) => v > 0 && v < max), `the bar went through intermediate values (saw ${seen.join(', ')})`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]!, `the bar never went back (saw ${seen.join(', ')})`);

      const scores = await page.$$eval('#citation-table tbody tr', (rows) => rows.map((r) => r.getAttribute('data-score') ?? ''));
      assert.equal(scores.length, 6);
      const scored = scores.filter((s) => s !== '').map(Number);
      assert.deepEqual(scored, [...scored].sort((a, b) => a - b), `least verifiable first: ${scores.join(', ')}`);
      assert.ok(scores.indexOf('') === -1 || scores.slice(scores.indexOf('')).every((s) => s === ''), 'unreadable sources after the scored ones');

      // side-by-side view of the least verifiable citation, then the artifact screenshot
      await page.click('#citation-table tbody tr:first-child button');
      await page.waitForSelector('#citation-detail:not([hidden]) .side-by-side');
      assert.ok((await page.locator('#citation-detail .ev[data-role]').count()) > 0, 'evidence highlighted in the sources');
      assert.doesNotMatch((await page.textContent('#citation-detail')) ?? '', /\bnull\b/);
      await mkdir(ARTIFACTS, { recursive: true });
      await writeFile(join(ARTIFACTS, '.gitignore'), '*\n');
      await page.screenshot({ path: join(ARTIFACTS, 'audit-page.png'), fullPage: true });
    });

    it('blind comparison: choose "A", restart the server, the export has it', async () => {
      assert.ok(jobId, 'needs the audit of the previous test');
      await page.goto(`${server.url}/#/compare/${jobId}`);
      await page.waitForSelector('#compare-box:not([hidden])', { timeout: 10_000 });
      annotatedClaim = (await page.textContent('#compare-claim')) ?? '';
      assert.ok(annotatedClaim);
      assert.equal(await page.locator('#side-a h4').textContent(), 'Source A');
      await page.click('#compare-box [data-choice="A"]');
      // Sent at once by a server without `skip`, after the undo delay by one with it.
      await page.waitForFunction(() => /Saved: .*A supports it better/.test((globalThis as unknown as PageGlobals).document.getElementById('compare-saved')?.textContent ?? ''), undefined, { timeout: 20_000 });

      await server.close();
      server = await setup.start(ix.index, dataDir);
      const text = await (await fetch(`${server.url}/v1/annotations.jsonl`)).text();
      const found = text.trim().split('\n').map((l) => AnnotationSchema.parse(JSON.parse(l)));
      assert.equal(found.length, 1);
      assert.deepEqual([found[0]!.claim, found[0]!.choice, found[0]!.jobId], [annotatedClaim, 'A', jobId]);
      assert.equal(found[0]!.preferred, found[0]!.a.role);

      // and through the CLI
      const out = join(ix.root, 'annotations.jsonl');
      const program = new Command().exitOverride();
      registerServeCommand(program);
      await program.parseAsync(['node', 'veracite', 'annotations', 'export', '--index', ix.index, '--data-dir', dataDir, '--out', out]);
      assert.equal(AnnotationSchema.parse(JSON.parse((await readFile(out, 'utf8')).trim())).choice, 'A');
    });
  });
}
