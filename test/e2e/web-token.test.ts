/**
 * The web page on a server started with a token, in Debian's Chromium: opened once as `/?token=...`, the
 * page works as without a token (the cookie carries it: fetch calls, the audit's EventSource); opened
 * without it, the page loads and says how to get in. Fake verification models (the flows, not the models,
 * are under test); skipped, with the reason, when Chromium is absent.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../../src/server/start.js';
import { fakeModels } from '../../src/server/testing/fake-models.js';
import { makeTestIndex, startTestServer, type TestIndex } from '../../src/server/testing/harness.js';
import { auditArticle, supportedClaims } from '../../src/server/testing/sample-index.js';
import { chromiumMissing, launchBrowser } from './browser.js';

const TOKEN = 'e2e-token-5f1d0c9a7b3e42d8';

describe('web page with a token (Chromium)', { skip: chromiumMissing() ?? false }, () => {
  let ix: TestIndex;
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  before(async () => {
    ix = await makeTestIndex('veracite-e2e-token-');
    [server, browser] = await Promise.all([startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'server'), token: TOKEN }), launchBrowser()]);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await ix?.cleanup();
  });

  async function newPage(): Promise<Page> {
    const page = await browser.context.newPage();
    page.on('pageerror', (e) => assert.fail(`error in the page: ${e.message}`));
    return page;
  }

  it('without the token: the page loads and says how to give it', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/#/claim`);
    await page.waitForSelector('body[data-ready="true"]');
    assert.match((await page.textContent('#service-status')) ?? '', /service unavailable: this server needs a token.*\/\?token=<token>/);
    await page.close();
  });

  it('opened once as /?token=: the token leaves the address bar, claims are checked and audits followed live', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/?token=${TOKEN}#/claim`);
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(new URL(page.url()).search, '', 'redirected to / without the token');
    assert.match((await page.textContent('#service-status')) ?? '', /1,000 documents/);
    const cookies = await browser.context.cookies(server.url);
    const name = `veracite_token_${new URL(server.url).port}`;
    const hours = (c: { expires: number }) => (c.expires - Date.now() / 1000) / 3600;
    assert.ok(
      cookies.some((c) => c.name === name && c.httpOnly && c.sameSite === 'Strict' && c.value === TOKEN && hours(c) > 11 && hours(c) <= 12),
      `an HttpOnly SameSite=Strict cookie named for the port, for 12 hours: ${JSON.stringify(cookies)}`,
    );

    await page.fill('#claim-input', supportedClaims()[4]!.claim);
    await page.click('#claim-submit');
    await page.waitForSelector('#verdict-label', { timeout: 30_000 });

    const art = auditArticle(3);
    await page.goto(`${server.url}/#/audit`);
    await page.fill('#audit-title', art.title);
    await page.fill('#audit-text', art.wikitext);
    await page.click('#audit-submit');
    await page.waitForSelector('#audit-run[data-status="done"]', { timeout: 60_000 });
    assert.equal(await page.locator('#citation-table tbody tr').count(), 3);
    // The export link is a plain download: the cookie carries the token there too.
    const exported = await page.evaluate(async () => (await fetch('/v1/annotations.jsonl')).status);
    assert.equal(exported, 200);
    await page.close();
  });

  it('a page on another port of 127.0.0.1 (same site: the browser sends it the cookie) cannot POST with it', async () => {
    // A form, which needs no CORS permission, posting a text/plain body shaped as JSON to the API.
    const form = `<form method="post" enctype="text/plain" action="${server.url}/v1/verify"><input name='{"claim":"x", "y":"' value='"}'></form><script>document.forms[0].submit()</script>`;
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(form));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const page = await newPage();
      const sent = page.waitForRequest((r) => r.url() === `${server.url}/v1/verify`);
      const answered = page.waitForResponse(`${server.url}/v1/verify`);
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      const headers = await (await sent).allHeaders();
      assert.match(headers.cookie ?? '', new RegExp(`veracite_token_${new URL(server.url).port}=`), 'the browser sent the cookie across ports');
      const response = await answered;
      assert.equal(response.status(), 403);
      assert.match(await response.text(), /cross_site_request.*comes from the page at http:\/\/127\.0\.0\.1:\d+, not from this server's page/);
      await page.close();
    } finally {
      other.close();
    }
  });
});
