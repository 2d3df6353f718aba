/**
 * For tests of every surface that proposes a citation (CLI, API, web page, gadget): what in a proposed
 * {{cite ...}} is still live wikitext, and a loopback OpenAlex whose every work carries the issue-45 hostile
 * title (and author, venue, landing page) in the API's documented shape (test/fixtures/search).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { packageRoot } from '../../util/package-root.js';

/** The title: closes the ref, adds a category, opens a comment, signs, and hides the page from search engines. */
export const HOSTILE_TITLE = '</ref>[[Category:Hoaxes]]<!-- ~~~~ __NOINDEX__';

/**
 * The live wikitext in `template` beyond one {{cite ...}} with " |name=value" parameters (a value's {{!}} is a
 * pipe made inert): [] when it is safe to paste. A |url= value may hold "=" and "://" (a URL's own).
 */
export function liveWikitext(template: string): string[] {
  const problems: string[] = [];
  const m = /^\{\{cite [A-Za-z]+((?: \|[a-z0-9-]+=[^|]*)*)\}\}$/.exec(template.replace(/\{\{!\}\}/g, '\u0001'));
  if (!m) return [`not one {{cite ...}} of " |name=value" parameters: ${template}`];
  for (const part of m[1]!.split(' |').slice(1)) {
    const [name, ...rest] = part.split('=');
    const value = rest.join('=');
    const url = name === 'url';
    const checks: [RegExp, string][] = [
      [/[<>]/, 'a tag or comment (< or >)'],
      [/\[|\]/, 'a link ([ or ])'],
      [/\{|\}/, 'a template or parameter ({ or })'],
      [/~~~/, 'a signature (~~~)'],
      [/__/, 'a behaviour switch (__...__)'],
      [/[\r\n]/, 'a line break'],
    ];
    if (!url) checks.push([/=/, 'an "=" (a parameter name)'], [/:\/\//, 'a bare link (://)']);
    for (const [re, what] of checks) if (re.test(value)) problems.push(`|${name}= holds ${what}: ${value}`);
  }
  return problems;
}

export interface HostileOpenAlex {
  /** The `--api-base openalex=` value. */
  base: string;
  requests: number;
  close(): Promise<void>;
}

/** Loopback OpenAlex: the recorded works answer with the hostile title, author, venue and a landing page URL carrying markup. */
export async function startHostileOpenAlex(): Promise<HostileOpenAlex> {
  const answer = JSON.parse(await readFile(join(packageRoot(), 'test', 'fixtures', 'search', 'openalex-search.json'), 'utf8')) as { results: Record<string, unknown>[] };
  for (const w of answer.results) {
    w['title'] = w['display_name'] = `${String(w['title'])} ${HOSTILE_TITLE}`;
    const first = (w['authorships'] as { author: { display_name: string } }[] | undefined)?.[0];
    if (first) first.author.display_name = `Ann [[User:Mallory|Trewin]] {{subst:Vandal}} ~~~~`;
    const loc = w['primary_location'] as { landing_page_url?: string; source?: { display_name: string } } | undefined;
    if (loc?.source) loc.source.display_name = `Journal of Coastal Ecology</ref><!-- __NOTOC__`;
    if (loc?.landing_page_url) loc.landing_page_url = `${loc.landing_page_url}?q=[[x]]|{{y}}~~~~`;
  }
  const body = JSON.stringify(answer);
  const state = { requests: 0 };
  const server = createServer((_req, res) => {
    state.requests++;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
