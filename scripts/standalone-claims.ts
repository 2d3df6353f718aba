/**
 * How many citation claims of the shared Wikipedia articles name their subject only by a pronoun, a "The
 * company"-style noun or a bare surname, and what the audit reads them as (src/audit/standalone-claim.ts).
 *
 *   node --import tsx scripts/standalone-claims.ts ../shared/data/wikitext
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseWikitext } from '../src/wiki/parse-wikitext.js';
import { standaloneClaim } from '../src/audit/standalone-claim.js';

const dir = process.argv[2] ?? '../shared/data/wikitext';
let claims = 0;
const byKind = new Map<string, number>();
const examples: string[] = [];
for (const f of (await readdir(dir)).filter((f) => f.endsWith('.txt')).sort()) {
  const title = basename(f, '.txt').replace(/[-_]/g, ' ');
  const article = parseWikitext(await readFile(join(dir, f), 'utf8'), { title });
  for (const c of article.citations) {
    claims++;
    const s = standaloneClaim(c.claim, c.context, c.articleTitle ?? article.title);
    if (!s.replaced) continue;
    const kind = /^(he|she|they|his|her|their)$/i.test(s.replaced.from) ? 'pronoun' : /^The /.test(s.replaced.from) ? '"The <noun>"' : 'bare surname';
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    if (examples.length < 12) examples.push(`${title}: "${c.claim.slice(0, 80)}" -> "${s.text.slice(0, 90)}"`);
  }
}
console.log(`${claims} citation claims; read with their subject: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
for (const e of examples) console.log(`  ${e}`);
