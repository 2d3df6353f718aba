/**
 * The parser against the 71 real articles of the shared data (../shared/data/wikitext next to the
 * checkout): every URL-bearing ref must give exactly one citation, with a non-empty claim, a URL, and the
 * section the ref sits under in the raw wikitext. The expectation comes from an independent regex-based
 * reading of the raw text (test/fixtures/wiki/url-ref-oracle.ts), matched to citations by the ref's
 * offset in the wikitext.
 *
 * Refs that the oracle finds inside templates (infoboxes...), tables, file captions or headings may be
 * cited or reported in `skipped`, but must be one of the two. Skipped when the shared data is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { expectedUrlRefs, sectionKey } from '../../test/fixtures/wiki/url-ref-oracle.js';
import { parseWikitext } from './parse-wikitext.js';

const DIR = fileURLToPath(new URL('../../../shared/data/wikitext/', import.meta.url));

test('shared wikitext articles: one citation per URL-bearing ref, right section, non-empty claim', (t) => {
  if (!existsSync(DIR)) {
    t.skip(`shared data not found at ${DIR}`);
    return;
  }
  const files = readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort();
  const totals = { articles: 0, urlRefs: 0, nonProse: 0, cited: 0, skipped: 0, citations: 0, mismatches: 0 };
  const problems: string[] = [];
  for (const file of files) {
    const raw = readFileSync(DIR + file, 'utf8');
    const article = parseWikitext(raw, { title: file.replace(/\.txt$/, '') });
    const expected = expectedUrlRefs(raw);
    totals.articles++;
    totals.urlRefs += expected.length;
    totals.citations += article.citations.length;

    const cited = new Map<number, typeof article.citations>();
    for (const c of article.citations) cited.set(c.wikitextStart!, [...(cited.get(c.wikitextStart!) ?? []), c]);
    const skipped = new Map(article.skipped.map((s) => [s.wikitextStart!, s]));

    for (const e of expected) {
      const found = cited.get(e.start) ?? [];
      const skip = skipped.get(e.start);
      const where = `${file}@${e.start} ${JSON.stringify(raw.slice(e.start, e.start + 60))}`;
      const issues: string[] = [];
      if (e.nonProse) totals.nonProse++;
      if (found.length > 1) issues.push(`${found.length} citations`);
      if (found.length === 1 && skip) issues.push('both cited and skipped');
      if (found.length === 0 && !skip) issues.push('neither cited nor skipped');
      if (found.length === 0 && skip && !e.nonProse) issues.push(`prose ref skipped (${skip.reason})`);
      const c = found[0];
      if (c) {
        totals.cited++;
        if (!c.claim.trim()) issues.push('empty claim');
        if (article.text.slice(c.charStart, c.charEnd) !== c.claim) issues.push('offsets');
        if (!c.source.url && !c.source.archiveUrl) issues.push('no URL in source');
        if (sectionKey(c.sectionPath) !== sectionKey(e.section)) {
          issues.push(`section ${JSON.stringify(c.sectionPath)}, expected ${JSON.stringify(e.section)}`);
        }
      } else if (skip) totals.skipped++;
      if (issues.length > 0) problems.push(`${where}: ${issues.join('; ')}`);
    }
    // and no URL citation where the oracle sees no URL ref (e.g. a ref inside a comment); a ref that is a
    // short footnote (<ref>{{harvnb|Smith|2010}}</ref>) carries the URL of the bibliography entry it points
    // at, which the oracle does not follow: that URL must be written in the entry (or be its {{google books}} link)
    const expectedStarts = new Set(expected.map((e) => e.start));
    for (const c of article.citations) {
      const entry = c.source.fullEntry;
      const url = c.source.url;
      const fromEntry = !!entry && !!url && (entry.includes(url) || (/\{\{\s*google books/i.test(entry) && url.startsWith('https://books.google.com/')));
      if (c.kind !== 'short' && c.source.url && !fromEntry && !expectedStarts.has(c.wikitextStart!)) {
        problems.push(`${file}@${c.wikitextStart}: URL citation the oracle does not expect`);
      }
    }
  }
  totals.mismatches = problems.length;
  t.diagnostic(JSON.stringify(totals));
  assert.equal(totals.articles, 71);
  assert.deepEqual(problems, []);
});
