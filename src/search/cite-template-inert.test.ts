/**
 * Proposed citation templates are safe to paste (issue 45 item 3), on every surface that offers one, with the
 * issue's hostile title `</ref>[[Category:Hoaxes]]<!-- ~~~~ __NOINDEX__` (and a hostile author, venue and
 * URL): the template the server builds (cite-template.ts), `veracite check --suggest-from search` started as
 * its own process against a loopback OpenAlex, POST /v1/citations/check on a server with search suggestions,
 * the web page's guard (src/web/sources.js) and the gadget's own templates and guard (src/wiki-gadget). Each
 * keeps the provider's text readable (as character references) and leaves no live wikitext. The reason of a
 * proposed {{failed verification}} tag (it may quote the source) follows the same rule on every surface.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { citeTemplate, inertText, inertUrl } from './cite-template.js';
import { tagWikitext } from '../verify/decision.js';
import { todoWikitext, type TodoItem } from '../audit/todo.js';
import { HOSTILE_TITLE, liveWikitext, startHostileOpenAlex, type HostileOpenAlex } from './testing/inert-template.js';
import { fakeModels } from '../server/testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from '../server/testing/harness.js';
import type { RunningServer } from '../server/start.js';
import { cliEntryArgs } from '../cli/testing/cli-entry.js';

const GADGET = fileURLToPath(new URL('../wiki-gadget/veracite-gadget.js', import.meta.url));
const WEB_SOURCES = fileURLToPath(new URL('../web/sources.js', import.meta.url));
const WEB_TODO = fileURLToPath(new URL('../web/todo.js', import.meta.url));

/** The reason= value of a {{failed verification}} tag holds no live wikitext (a pipe only as {{!}}). */
function assertInertTag(tag: string): void {
  const m = /^\{\{failed verification\|date=[A-Z][a-z]+ \d{4}\|reason=(.*)\}\}$/.exec(tag);
  assert.ok(m, tag);
  const value = m[1]!.replace(/\{\{!\}\}/g, '');
  assert.doesNotMatch(value, /[<>[\]{}|=]|~~~|__|:\/\//, tag);
}
const CLAIM = 'Grey seal pup production in Cornwall rose by a fifth between 2016 and 2021.';
/** The hostile title as the template writes it: every character kept, as references where it is markup. */
const HOSTILE_INERT = '&lt;/ref&gt;&#91;&#91;Category:Hoaxes&#93;&#93;&lt;!-- &#126;&#126;&#126;&#126; &#95;_NOINDEX&#95;_';

/** Character references decoded, as the wiki renders them: the provider's text comes back as it was. */
function rendered(v: string): string {
  return v.replace(/\{\{!\}\}/g, '|').replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

describe('the server\'s template (cite-template.ts)', () => {
  it('a journal article with the hostile title, author, venue and DOI suffix: no live wikitext, the text kept', () => {
    const t = citeTemplate({ url: 'https://doi.org/10.5555/x', title: HOSTILE_TITLE, doi: '10.5555/x[[y]]~~~~', journal: `J {{subst:Foo}} | x=y`, date: '2022 __NOTOC__', authors: ['Ann [[User:M|T]]', `Bob ${HOSTILE_TITLE}`], pmid: '123 {{x}}', pmcid: 'PMC99' }, '2026-12-01');
    assert.deepEqual(liveWikitext(t), [], t);
    assert.match(t, new RegExp(`\\|title=${HOSTILE_INERT.replace(/[|{}[\]().*+?^$\\]/g, '\\$&')} \\|`));
    assert.ok(t.includes(' |pmc=99 '), 'a PMC id of digits is kept');
    assert.ok(!t.includes('|pmid='), 'a PubMed id that is not digits is dropped, not escaped');
    const title = /\|title=([^|]*) \|/.exec(t)![1]!;
    assert.equal(rendered(title), HOSTILE_TITLE, 'rendered, the title reads as the provider gave it');
  });

  it('a web page with the hostile title and a URL carrying markup: the URL percent-encoded, still the same address', () => {
    const t = citeTemplate({ url: 'https://news.example/a?q=[[x]]|{{y}}~~~~&b=__c__ d', title: HOSTILE_TITLE, publisher: '<!-- News -->', date: '~~~~~' }, '2026-12-01');
    assert.deepEqual(liveWikitext(t), [], t);
    assert.match(t, /\|url=https:\/\/news\.example\/a\?q=%5B%5Bx%5D%5D%7C%7B%7By%7D%7D%7E%7E%7E%7E&b=%5F_c%5F_%20d \|/);
    assert.equal(decodeURI(inertUrl('https://news.example/a?q=[[x]]|{{y}}')!), 'https://news.example/a?q=[[x]]|{{y}}');
    assert.equal(inertUrl('javascript:alert(1)'), undefined, 'only http(s) URLs');
    assert.equal(inertText('Seals & pups: 5 ~ 6, a_b'), 'Seals & pups: 5 ~ 6, a_b', 'ordinary text stays as it is');
    assert.equal(inertText('&#91;[ already &amp;'), '&amp;#91;&#91; already &amp;amp;', 'a reference-like text is kept as typed');
  });
});

describe('surfaces that propose a template, against a loopback OpenAlex with the hostile answer', () => {
  let oa: HostileOpenAlex;
  let dir: string;
  before(async () => {
    oa = await startHostileOpenAlex();
    dir = await mkdtemp(join(tmpdir(), 'vc-inert-template-'));
    await writeFile(join(dir, 'bread.html'), '<html><head><title>Bread</title></head><body><article><p>Sourdough bread rises slowly overnight in a cool kitchen.</p><p>Rye flour gives a denser loaf than wheat flour.</p></article></body></html>');
  });
  after(async () => {
    await oa.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('CLI: veracite check --suggest-from search (its own process) prints an inert citation', async () => {
    const args = [
      ...cliEntryArgs(), 'check', CLAIM, '--source', join(dir, 'bread.html'), '--title', 'Grey seal', '--no-index', '--scorer', 'lexical', '--threshold', '0.3',
      '--suggest-from', 'search', '--search', 'openalex', '--search-fetches', '0', '--api-base', `openalex=${oa.base}`, '--api-interval', '0', '--cache', join(dir, 'cache-cli'),
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    assert.ok(oa.requests > 0, 'OpenAlex was asked');
    const cites = [...stdout.matchAll(/^ +cite: (\{\{cite .*?\}\})(?: \(found by .*\))?$/gm)].map((m) => m[1]!);
    assert.ok(cites.length > 0, `exit ${code}; no cite: line in\n${stdout}\n${stderr}`);
    for (const t of cites) {
      assert.deepEqual(liveWikitext(t), [], t);
      assert.ok(t.includes(HOSTILE_INERT), t);
    }
    assert.doesNotMatch(stdout, /\[\[Category:Hoaxes\]\]\|?.*\}\}$/m);
  });

  describe('API: POST /v1/citations/check with search suggestions', () => {
    let ix: TestIndex;
    let server: RunningServer;
    before(async () => {
      ix = await makeTestIndex('vc-inert-template-ix-');
      server = await startTestServer(ix.index, fakeModels(), {
        settings: { sources: { apis: { openalex: oa.base }, apiIntervalMs: 0, cache: join(dir, 'cache-api'), timeoutMs: 2000 }, search: { suggestFrom: 'search', providers: ['openalex'], maxFetches: 0 }, audit: { threshold: 0.3 } },
      });
    });
    after(async () => {
      await server.close();
      await ix.cleanup();
    });

    it('every suggestion\'s template is inert and keeps the title readable', async () => {
      const res = await postJson(`${server.url}/v1/citations/check`, { claim: CLAIM, title: 'Grey seal', source: { text: 'Sourdough bread rises slowly overnight in a cool kitchen. Rye flour gives a denser loaf.', title: 'Bread' } });
      assert.equal(res.status, 200);
      const view = (await res.json()) as { suggestions: { title: string; template?: string }[] };
      const templates = view.suggestions.flatMap((s) => (s.template ? [s.template] : []));
      assert.ok(templates.length > 0, JSON.stringify(view.suggestions));
      for (const t of templates) {
        assert.deepEqual(liveWikitext(t), [], t);
        assert.ok(t.includes(HOSTILE_INERT), t);
      }
    });
  });
});

describe('the web page (src/web/sources.js)', () => {
  it('offers a server\'s template for pasting only when it is inert', async () => {
    const web = (await import(WEB_SOURCES)) as { inertTemplate(t: unknown): boolean };
    const good = citeTemplate({ url: 'https://news.example/a?x=1', title: HOSTILE_TITLE, authors: ['A | B'] }, '2026-12-01');
    assert.equal(web.inertTemplate(good), true, good);
    for (const bad of [`{{cite web |title=${HOSTILE_TITLE} |url=https://a.example/}}`, '{{cite web |title=a}}[[Category:X]]', '{{cite web |title=a ~~~~}}', '{{cite web |title=__NOINDEX__}}', '{{cite web |title=x=y}}', '<script>x</script>', 42]) {
      assert.equal(web.inertTemplate(bad), false, String(bad));
    }
  });
});

describe('the wiki gadget (src/wiki-gadget)', () => {
  interface Logic {
    citeTemplate(s: unknown, today: Date): string;
    betterTemplate(s: unknown, today: Date): string;
    inertTemplate(t: unknown): boolean;
  }
  let logic: Logic;
  before(async () => {
    const sandbox: { window: { veraciteGadget?: { logic: Logic } } } = { window: {} };
    runInNewContext(await readFile(GADGET, 'utf8'), sandbox);
    logic = sandbox.window.veraciteGadget!.logic;
  });
  const day = new Date('2026-12-01T12:00:00Z');

  it('its own templates (an index\'s document) are inert: cite journal, cite arXiv, cite web', () => {
    for (const url of ['https://doi.org/10.5555/x', 'https://arxiv.org/abs/2104.01234', 'https://news.example/a?q=[[x]]|{{y}}~~~~']) {
      const t = logic.citeTemplate({ title: HOSTILE_TITLE, url }, day);
      assert.deepEqual(liveWikitext(t), [], t);
      assert.ok(t.includes(HOSTILE_INERT), t);
    }
  });

  it('a server\'s template that carries wikitext is replaced by one made here; an inert one is offered as it is', () => {
    const hostile = { title: HOSTILE_TITLE, url: 'https://news.example/a', template: `{{cite web |title=${HOSTILE_TITLE} |url=https://news.example/a}}` };
    const t = logic.betterTemplate(hostile, day);
    assert.deepEqual(liveWikitext(t), [], t);
    const server = citeTemplate({ url: 'https://news.example/a', title: HOSTILE_TITLE }, '2026-11-30');
    assert.equal(logic.betterTemplate({ ...hostile, template: server }, day), server);
  });
});

describe('the reason of a proposed {{failed verification}} tag (it may quote the source)', () => {
  const why = `the source states otherwise: ${HOSTILE_TITLE} | 7% = 0.7%`;
  it('the one decision\'s tag, the audit\'s to-do wikitext, the web page\'s and the gadget\'s: inert, by one rule', async () => {
    assertInertTag(tagWikitext({ tag: { template: 'failed verification', why } }, 'December 2026')!);
    const item: TodoItem = { number: 3, section: 'History', claim: 'A claim.', band: 'not-supported', reason: why, sourceTitle: 'T', sourceUrl: 'https://a.example/', suggestion: '', tag: true } as TodoItem;
    const line = todoWikitext([item], { title: 'T', date: new Date('2026-12-01T00:00:00Z') }).split('\n')[1]!;
    assertInertTag(line.slice(line.indexOf('{{failed verification')));
    const web = (await import(WEB_TODO)) as { templateValue(s: string): string };
    for (const v of [why, HOSTILE_TITLE, 'plain words: 0.12, below 0.15', '&#91; a_b ~ ~~ ___ http://x']) assert.equal(web.templateValue(v), inertText(v), v);
    const sandbox: { window: { veraciteGadget?: { logic: { proposedTag(v: unknown, d: Date): string } } } } = { window: {} };
    runInNewContext(await readFile(GADGET, 'utf8'), sandbox);
    assertInertTag(sandbox.window.veraciteGadget!.logic.proposedTag({ decision: { band: 'not-supported', tag: { template: 'failed verification', why } } }, new Date('2026-12-01T12:00:00Z'))!);
  });
});
