/**
 * Identifiers and URLs of every citation of the shared wikitext articles: what parseWikitext finds on each
 * citation's source against what the wikitext holds, counted by a separate, deliberately simple scan of
 * the ref's own wikitext (regexes for `doi=`, `{{PMID|...}}`, "ISBN ...", `http`...; a reuse reads the ref
 * that defines its name; a short footnote `{{sfn}}` / `{{harvnb|Smith|2010}}` reads the first cite
 * template of the article that names the author and the year). It shares no code with src/wiki.
 *
 *   node --import tsx scripts/citation-identifiers.ts [--dir ../shared/data/wikitext] [--show N]
 *
 * Prints a Markdown table (one row per article, then the total) and the disagreements.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWikitext } from '../src/wiki/parse-wikitext.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : dflt;
};
const DIR = opt('--dir', join(import.meta.dirname, '../../shared/data/wikitext'));
const SHOW = Number(opt('--show', '40'));

const KINDS = ['doi', 'pmid', 'pmc', 'arxiv', 'isbn', 'issn', 'bibcode', 's2cid', 'jstor', 'hdl', 'oclc'] as const;
type Kind = (typeof KINDS)[number];

/** `|kind=value`, `{{kind|value}}` or the written form ("PMID 123", "doi:10.", "ISBN 978..."), per kind. */
const PRESENT: Record<Kind, RegExp> = {
  doi: /(?:\|\s*doi\s*=\s*|\{\{\s*(?:cite )?doi\s*\|\s*|\bdoi:\s*|\|\s*(?:bio|med)rxiv\s*=\s*|\/\/(?:dx\.)?doi\.org\/)(?:10\.)?\d/i,
  pmid: /(?:\|\s*pmid\s*=\s*|\{\{\s*(?:cite )?pmid\s*\|\s*|\bPMID:?\s*)\d/i,
  pmc: /(?:\|\s*pmc\s*=\s*|\{\{\s*pmc\s*\|\s*|\bPMC\s?(?=\d{3}))(?:PMC)?\d/i,
  arxiv: /(?:\|\s*(?:arxiv|eprint)\s*=\s*|\{\{\s*arxiv\s*\|\s*|\barXiv:\s*)[a-z\d]/i,
  isbn: /(?:\|\s*isbn(?:13)?\s*=\s*|\{\{\s*isbn\s*\|\s*|\bISBN(?:-1[03])?:?\s*)\d/i,
  issn: /(?:\|\s*e?issn\s*=\s*|\{\{\s*e?issn\s*\|\s*|\bE?ISSN:?\s*)\d/i,
  bibcode: /(?:\|\s*bibcode\s*=\s*|\{\{\s*bibcode\s*\|\s*|\bBibcode:?\s*)\d/i,
  s2cid: /(?:\|\s*s2cid\s*=\s*|\{\{\s*s2cid\s*\|\s*)\d/i,
  jstor: /(?:\|\s*jstor\s*=\s*|\{\{\s*jstor\s*\|\s*|\bJSTOR:?\s*)\d/i,
  hdl: /(?:\|\s*hdl\s*=\s*|\{\{\s*hdl\s*\|\s*|\bhdl:\s*)\d/i,
  oclc: /(?:\|\s*oclc\s*=\s*|\{\{\s*oclc\s*\|\s*|\bOCLC:?\s*)\d/i,
};
const URL_PRESENT = /https?:\/\/|\[\/\/|=\s*\/\/|\{\{\s*google books\s*\|/i;

function scan(text: string): { kinds: Set<Kind>; url: boolean } {
  return { kinds: new Set(KINDS.filter((k) => PRESENT[k].test(text))), url: URL_PRESENT.test(text) };
}

/** Brace-counted end of the template opening at `at`. */
function braceEnd(s: string, at: number): number {
  let depth = 0;
  for (let i = at; i < s.length - 1; i++) {
    if (s.startsWith('{{', i)) (depth++, i++);
    else if (s.startsWith('}}', i)) {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return s.length;
}

/** The full cite template a short footnote points at: the first that names its first author and its year. */
function linkedEntry(wikitext: string, shortTemplate: string): string | undefined {
  const parts = shortTemplate.replace(/^\{\{|\}\}$/g, '').split('|').slice(1).map((p) => p.trim());
  const named = Object.fromEntries(parts.filter((p) => p.includes('=')).map((p) => [p.split('=')[0]!.trim().toLowerCase(), p.slice(p.indexOf('=') + 1).trim()]));
  const positional = parts.filter((p) => p && !p.includes('=') && p !== 'nb');
  const author = named['last'] ?? named['author'] ?? named['1a1'] ?? positional[0];
  const year = named['year'] ?? named['1y'] ?? (positional.length > 1 ? positional[positional.length - 1] : undefined);
  if (!author || !year) return undefined;
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of wikitext.matchAll(/\{\{\s*(?:cite|citation)\b/gi)) {
    const t = wikitext.slice(m.index, braceEnd(wikitext, m.index));
    if (new RegExp(`=\\s*${esc(author)}\\s*(\\||\\}|\\n)`, 'i').test(t) && new RegExp(`\\|\\s*(date|year)\\s*=[^|]*\\b${esc(year)}\\b`).test(t)) return t;
  }
  return undefined;
}

interface Row {
  article: string;
  citations: number;
  present: number;
  found: number;
  agree: number;
  wrongNoUrl: number;
  idPresent: number;
  idFound: number;
  perKind: Record<Kind, { present: number; found: number }>;
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort();
const rows: Row[] = [];
const problems: string[] = [];
for (const file of files) {
  const raw = readFileSync(join(DIR, file), 'utf8');
  const text = raw.replace(/<!--[\s\S]*?-->/g, '');
  const article = parseWikitext(raw, { title: file.replace(/\.txt$/, '') });
  const defs = new Map<string, string>();
  for (const m of raw.matchAll(/<ref\s+name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>/]+))\s*>([\s\S]*?)<\/ref\s*>/gi)) {
    const name = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (name && m[4]!.trim() && !defs.has(name)) defs.set(name, m[4]!);
  }
  const row: Row = { article: file.replace(/\.txt$/, ''), citations: 0, present: 0, found: 0, agree: 0, wrongNoUrl: 0, idPresent: 0, idFound: 0, perKind: Object.fromEntries(KINDS.map((k) => [k, { present: 0, found: 0 }])) as Row['perKind'] };
  for (const c of article.citations) {
    row.citations++;
    let own = raw.slice(c.wikitextStart, c.wikitextEnd);
    const reuse = /^<ref\b[^>]*\/>$|^<ref\b[^>]*>\s*<\/ref\s*>$/i.exec(own);
    if (reuse) own = defs.get(/name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>/]+))/i.exec(own)?.slice(1).find(Boolean)?.trim() ?? '') ?? own;
    let w = scan(own);
    // a ref that is only a short footnote (no URL, no identifier, no cite template of its own): its entry
    const short = /\{\{\s*(?:sfnm?p?|harv\w*)\s*\|[^{}]*\}\}/i.exec(own);
    if (short && !/\{\{\s*(?:cite|citation)\b/i.test(own)) {
      const entry = linkedEntry(text, short[0]);
      if (entry) {
        const e = scan(entry);
        w = { kinds: new Set([...w.kinds, ...e.kinds]), url: w.url || e.url };
      }
    }
    const ids = c.source.ids ?? {};
    const foundKinds = new Set(KINDS.filter((k) => (ids as Record<string, string | undefined>)[k]));
    const foundUrl = !!(c.source.url || c.source.archiveUrl);
    const hasW = w.url || w.kinds.size > 0;
    const hasP = foundUrl || foundKinds.size > 0;
    if (hasW) row.present++;
    if (hasP) row.found++;
    if (w.kinds.size) row.idPresent++;
    if (foundKinds.size) row.idFound++;
    for (const k of KINDS) {
      if (w.kinds.has(k)) row.perKind[k].present++;
      if (foundKinds.has(k)) row.perKind[k].found++;
    }
    const same = hasW === hasP && w.url === foundUrl && KINDS.every((k) => w.kinds.has(k) === foundKinds.has(k));
    if (same) row.agree++;
    if (hasW && !hasP) row.wrongNoUrl++;
    if (!same) {
      problems.push(
        `${row.article}#${c.index} (${c.kind}) wikitext ${[...w.kinds].join(',') || '-'}${w.url ? ' +url' : ''} | parser ${[...foundKinds].join(',') || '-'}${foundUrl ? ' +url' : ''}: ${JSON.stringify(own.slice(0, 160))}`,
      );
    }
  }
  rows.push(row);
}

const total: Row = rows.reduce(
  (t, r) => {
    for (const k of ['citations', 'present', 'found', 'agree', 'wrongNoUrl', 'idPresent', 'idFound'] as const) t[k] += r[k];
    for (const k of KINDS) {
      t.perKind[k].present += r.perKind[k].present;
      t.perKind[k].found += r.perKind[k].found;
    }
    return t;
  },
  { article: '**all 71 articles**', citations: 0, present: 0, found: 0, agree: 0, wrongNoUrl: 0, idPresent: 0, idFound: 0, perKind: Object.fromEntries(KINDS.map((k) => [k, { present: 0, found: 0 }])) as Row['perKind'] },
);
total.article = `**all ${rows.length} articles**`;

console.log('| article | citations | identifier or URL in the wikitext | found by the parser | identifier in the wikitext | identifier found | agree (URL and every kind) | wrongly "no URL" | without either |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of [...rows, total]) {
  console.log(`| ${r.article} | ${r.citations} | ${r.present} | ${r.found} | ${r.idPresent} | ${r.idFound} | ${r.agree} | ${r.wrongNoUrl} | ${r.citations - r.found} |`);
}
console.log('\n| identifier | citations with it in the wikitext | found by the parser |');
console.log('|---|---|---|');
for (const k of KINDS) console.log(`| ${k} | ${total.perKind[k].present} | ${total.perKind[k].found} |`);
console.log(`\n${problems.length} disagreements${problems.length > SHOW ? ` (first ${SHOW})` : ''}:`);
for (const p of problems.slice(0, SHOW)) console.log(`  ${p}`);
