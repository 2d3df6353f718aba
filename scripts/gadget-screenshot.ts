/**
 * The README's picture of the wiki gadget (docs/wiki-gadget.png), made from real output, as an editor would
 * get it with nothing but this repository:
 *
 *   1. index the shipped SciFact sample (data/samples/scifact, which holds the 12 abstracts the sample
 *      article cites) with `veracite index`, as `veracite demo` does;
 *   2. start `veracite serve` on that index with `--sources data/samples/audit/sources` (the saved copies of
 *      the cited pages), a token and `--allow-origin` for the page's origin, the default offline models;
 *   3. render the shipped sample article (data/samples/audit/Breast_cancer_risk_factors.txt) as a wiki page
 *      (scripts/sample-wiki-page.ts; a banner above its title says what it is) and serve it from another
 *      loopback origin;
 *   4. in Debian's headless Chromium, load the gadget from the server as the README's bookmarklet does,
 *      paste the token when the gadget asks for it, wait for the audit to finish;
 *   5. open the popover of the first marker by a fixed rule (the first "not supported", else the first
 *      "partly supported", else the first "needs review", else the first marker), the page scrolled only as
 *      far as the popover needs to show whole below its marker, and save the window (1280x900) as the
 *      picture; a 420x800 one goes to test-artifacts/.
 *
 *   node --import tsx scripts/gadget-screenshot.ts [--out docs/wiki-gadget.png] [--keep]
 *
 * Prints the server's start-up lines, the audit's progress, every citation's band beside the sample's label
 * (data/samples/audit/labels.jsonl), how many agree, and the files written. The picture shows whatever the
 * audit decides, right or wrong: run the script again when the audit changes.
 * Nothing leaves the machine: every server listens on 127.0.0.1, the sources are the saved copies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { parseWikitext } from '../src/wiki/index.js';
import { chromiumMissing, launchBrowser } from '../test/e2e/browser.js';
import { renderWikiPage } from './sample-wiki-page.js';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'src', 'cli', 'entry.ts');
const CORPUS = join(ROOT, 'data', 'samples', 'scifact', 'corpus.jsonl');
const SAMPLE = join(ROOT, 'data', 'samples', 'audit', 'Breast_cancer_risk_factors.txt');
const SOURCES = join(ROOT, 'data', 'samples', 'audit', 'sources');
const LABELS = join(ROOT, 'data', 'samples', 'audit', 'labels.jsonl');
const TITLE = 'Breast cancer risk factors';
const PAGE_PATH = '/wiki/Breast_cancer_risk_factors';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: join(ROOT, 'docs', 'wiki-gadget.png') },
    narrow: { type: 'string', default: join(ROOT, 'test-artifacts', 'wiki-gadget-sample-420.png') },
    keep: { type: 'boolean', default: false },
    'timeout-min': { type: 'string', default: '20' },
  },
});

const started = Date.now();
const log = (s: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);

/** Runs the CLI from source (this checkout's code, not a stale dist/) and waits for it to end. */
function cli(argv: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CLI, ...argv], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function run(argv: string[]): Promise<void> {
  const child = cli(argv);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (out += d));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`veracite ${argv.join(' ')} failed (exit ${code}):\n${out}`);
  for (const line of out.trim().split('\n')) log(`  ${line}`);
}

/** Starts `veracite serve` and resolves with its URL once it listens; its start-up lines are printed. */
async function serve(argv: string[], token: string): Promise<{ url: string; child: ChildProcess }> {
  // The token goes through the environment, as the README suggests, so it never shows in a process list.
  const child = cli(['serve', ...argv], { VERACITE_TOKEN: token });
  let err = '';
  child.stdout!.on('data', () => {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`veracite serve did not start within 3 minutes:\n${err}`)), 180_000);
    child.stderr!.on('data', (d: Buffer) => {
      const before = err.length;
      err += d;
      for (const line of err.slice(before).split('\n').filter(Boolean)) log(`  ${line}`);
      const m = /veracite serve: (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m && /token required/.test(err)) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`veracite serve exited (${code}) before it listened:\n${err}`));
    });
  });
}

/** The wiki page, served as a wiki would serve it: another origin than the veracite server. */
async function servePage(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === PAGE_PATH) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

interface Mark {
  citation: string;
  band: string;
  label: string;
}

/** Loads the gadget as the bookmarklet does, answers its token question, and waits for the audit's end. */
async function checkCitations(page: Page, server: string, token: string, pageUrl: string, timeoutMs: number): Promise<{ marks: Mark[]; prompts: string[]; status: string; notice: string }> {
  const prompts: string[] = [];
  page.on('dialog', (d) => {
    prompts.push(d.message());
    void d.accept(token);
  });
  page.on('pageerror', (e) => log(`error in the page: ${e.message}`));
  await page.goto(`${pageUrl}${PAGE_PATH}`);
  // The README's bookmarklet, run on the page.
  await page.evaluate((src) => {
    const d = (globalThis as unknown as { document: { createElement(t: string): { src: string }; head: { append(e: unknown): void } } }).document;
    const s = d.createElement('script');
    s.src = src;
    d.head.append(s);
  }, `${server}/veracite-gadget.js`);
  let last = '';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null; getAttribute(n: string): string | null } | null } }).document;
      return { status: d.querySelector('#veracite-status')?.textContent ?? '', done: d.querySelector('#veracite-panel')?.getAttribute('data-status') ?? '', error: d.querySelector('#veracite-error')?.textContent ?? '' };
    });
    if (state.status !== last) log(`gadget: ${(last = state.status)}`);
    if (state.done === 'done') break;
    if (state.done) throw new Error(`the gadget stopped: ${state.done}: ${state.error}`);
    if (Date.now() > deadline) throw new Error(`the audit did not finish within ${timeoutMs / 60_000} min (last: ${last})`);
    await new Promise((r) => setTimeout(r, 2000));
  }
  const marks = await page.$$eval('.veracite-mark[data-citation]', (els) =>
    els.map((e) => ({ citation: e.getAttribute('data-citation') ?? '', band: e.getAttribute('data-band') ?? '', label: e.getAttribute('aria-label') ?? '' })),
  );
  return { marks, prompts, status: last, notice: (await page.textContent('#veracite-notice')) ?? '' };
}

/** The fixed rule for the marker whose popover the picture shows. */
function pick(marks: Mark[]): Mark | undefined {
  for (const band of ['not-supported', 'partly', 'needs-review']) {
    const m = marks.find((x) => x.band === band);
    if (m) return m;
  }
  return marks[0];
}

/**
 * Opens the popover of `citation`, scrolled as an editor would: the page is scrolled only as far as needed
 * for the marker and its whole popover to show below it (never above the article's first lines).
 */
async function openPopover(page: Page, citation: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.evaluate((id) => {
    const g = globalThis as unknown as { innerHeight: number; scrollTo(x: number, y: number): void; scrollBy(x: number, y: number): void; document: { querySelector(s: string): { getBoundingClientRect(): { top: number }; click(): void; scrollHeight: number } | null } };
    g.scrollTo(0, 0);
    const mark = g.document.querySelector(`.veracite-mark[data-citation="${id}"]`)!;
    mark.click();
    const tall = g.document.querySelector('#veracite-popover')!.scrollHeight;
    const top = mark.getBoundingClientRect().top;
    // Below the page's banner, which stays at the top of the window.
    const want = Math.max(140, g.innerHeight - tall - 40);
    if (top > want) g.scrollBy(0, top - want);
    mark.click(); // opened again: placed for where the marker is now
  }, citation);
  await page.waitForSelector('#veracite-popover');
}

/** The sample's labels (data/samples/audit/labels.jsonl) by citation number, in the gadget's band names. */
async function readLabels(): Promise<Map<number, string>> {
  const names: Record<string, string> = { supported: 'supported', partially_supported: 'partly', not_supported: 'not-supported' };
  const out = new Map<number, string>();
  for (const line of (await readFile(LABELS, 'utf8')).split('\n').filter((l) => l.trim())) {
    const l = JSON.parse(line) as { citation: number; label: string };
    out.set(l.citation, names[l.label] ?? l.label);
  }
  return out;
}

async function main(): Promise<void> {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  const tmp = await mkdtemp(join(tmpdir(), 'veracite-gadget-shot-'));
  const index = join(tmp, 'index');
  const children: ChildProcess[] = [];
  let closePage: (() => Promise<void>) | undefined;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    log(`indexing ${relative(ROOT, CORPUS)} into ${index}`);
    await run(['index', CORPUS, '--format', 'scifact', '--index', index, '--quiet']);

    const article = parseWikitext(await readFile(SAMPLE, 'utf8'), { title: TITLE });
    const html = renderWikiPage(article, {
      banner: `Sample article ${relative(ROOT, dirname(SAMPLE))}, rendered by scripts/gadget-screenshot.ts, checked with veracite serve --sources`,
    });
    const page = await servePage(html);
    closePage = page.close;
    log(`the sample article: ${article.citations.length} citations, served at ${page.url}${PAGE_PATH}`);

    const token = randomBytes(24).toString('hex');
    log('starting veracite serve (loads the offline models)');
    const server = await serve(['--index', index, '--data-dir', join(tmp, 'server'), '--sources', SOURCES, '--port', '0', '--allow-origin', page.url], token);
    children.push(server.child);

    browser = await launchBrowser();
    const wide = await browser.context.newPage();
    const result = await checkCitations(wide, server.url, token, page.url, Number(args['timeout-min']) * 60_000);
    const tally = new Map<string, number>();
    for (const m of result.marks) tally.set(m.band, (tally.get(m.band) ?? 0) + 1);
    log(`the gadget asked for the token ${result.prompts.length} time(s): ${JSON.stringify(result.prompts[0] ?? '')}`);
    log(`${result.marks.length} markers: ${[...tally].map(([b, n]) => `${b} ${n}`).join(', ')}`);
    const labels = await readLabels();
    const number = (m: Mark) => Number(m.citation.split('#').at(-1)) + 1;
    for (const m of result.marks) log(`  #${number(m)} ${m.label}${labels.has(number(m)) ? ` [label: ${labels.get(number(m))}]` : ' [no label]'}`);
    const labelled = result.marks.filter((m) => labels.has(number(m)));
    log(`bands matching the sample's labels: ${labelled.filter((m) => labels.get(number(m)) === m.band).length} of ${labelled.length}`);
    if (result.notice) log(`panel notice: ${result.notice}`);
    if (result.marks.length !== article.citations.length) throw new Error(`${result.marks.length} markers for ${article.citations.length} citations`);

    const chosen = pick(result.marks);
    if (!chosen) throw new Error('no marker to open');
    log(`popover of #${number(chosen)} (${chosen.band}; label: ${labels.get(number(chosen)) ?? 'none'}): the first "not supported", else "partly", else "needs review", else the first marker`);
    await openPopover(wide, chosen.citation);
    await mkdir(dirname(args.out!), { recursive: true });
    await wide.screenshot({ path: args.out! });

    await wide.setViewportSize({ width: 420, height: 800 });
    await openPopover(wide, chosen.citation);
    await mkdir(dirname(args.narrow!), { recursive: true });
    await wide.screenshot({ path: args.narrow! });
    for (const f of [args.out!, args.narrow!]) log(`wrote ${relative(ROOT, f)} (${Math.round((await stat(f)).size / 1024)} KiB)`);
  } finally {
    await browser?.close();
    for (const c of children) {
      c.kill('SIGINT');
      await new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r)));
    }
    await closePage?.();
    if (args.keep) log(`kept ${tmp}`);
    else await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  console.error(`gadget-screenshot: ${e.message}`);
  process.exit(1);
});
