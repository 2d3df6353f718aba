/**
 * A large synthetic Wikipedia article for the large-audit test and the resource probe
 * (bench/probe-large-audit.ts): many sections and subsections of prose whose sentences carry
 * `<ref>{{cite web}}</ref>`s (some named and reused), a few `{{sfn}}`s, an infobox, tables, lists and a
 * reference list. Deterministic (seeded), so a probe run is repeatable. About 600 bytes of wikitext per
 * ref: 8,691 refs make ~5.2 MB, the size of the article in issue 27.
 *
 *   import { syntheticWikitext } from '../src/server/testing/large-article.js';
 *   const { text, refs } = syntheticWikitext({ refs: 8691 });
 */
import { Rng } from '../../util/rng.js';

const WORDS = (
  'the city council river bridge railway station population census school church market harbour mill ' +
  'county district parish century war treaty king duke bishop abbey castle wall road canal trade wool tin ' +
  'copper mine engine museum library theatre festival election mayor court prison hospital university ' +
  'college football cricket club stadium newspaper radio television company factory bank shop hotel park ' +
  'garden forest hill valley coast island lake weather climate rainfall summer winter spring autumn'
).split(' ');

export interface SyntheticWikitextOptions {
  /** Citation occurrences to write (refs, reuses and sfns together). */
  refs?: number;
  /** Citations per level-2 section (default 40: ~220 sections for 8,700 refs). */
  perSection?: number;
  seed?: number;
}

export function syntheticWikitext(opts: SyntheticWikitextOptions = {}): { text: string; refs: number; sections: number } {
  const total = opts.refs ?? 8691;
  const perSection = opts.perSection ?? 40;
  const gen = new Rng(opts.seed ?? 27);
  const rng = () => gen.next();
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const sentence = (n: number) => {
    const words = Array.from({ length: n }, () => pick(WORDS));
    words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
    // a link and some bold now and then, as real prose has
    if (n > 6) words[3] = `[[${words[3]}]]`;
    if (n > 9) words[7] = `'''${words[7]}'''`;
    return words.join(' ') + '.';
  };
  const parts: string[] = [];
  parts.push(`{{Infobox settlement\n| name = Synthetic Town\n| population = 12345<ref>{{cite web |url=https://census.example/town |title=Census}}</ref>\n}}\n`);
  let written = 0;
  let section = 0;
  const named: string[] = [];
  const ref = () => {
    written++;
    const r = rng();
    if (r < 0.1 && named.length) return `<ref name="${pick(named)}" />`;
    if (r < 0.13) return `{{sfn|Author${written % 50}|${1900 + (written % 120)}|p=${written % 300}}}`;
    const id = written;
    const name = r < 0.25 ? ` name="n${id}"` : '';
    if (name) named.push(`n${id}`);
    return (
      `<ref${name}>{{cite web |url=https://source${id % 997}.example/articles/${id}/${pick(WORDS)}-${pick(WORDS)}.html ` +
      `|title=${sentence(6).slice(0, -1)} |work=The ${pick(WORDS)} Gazette |publisher=${pick(WORDS)} Press ` +
      `|date=${1 + (id % 28)} March ${1950 + (id % 70)} |access-date=2 May 2021 |archive-url=https://web.archive.org/web/2020/https://source${id % 997}.example/articles/${id} ` +
      `|archive-date=3 June 2020 |url-status=live |quote=${sentence(16)}}}</ref>`
    );
  };
  parts.push(`'''Synthetic Town''' is a ${sentence(12)}${ref()} ${sentence(14)}${ref()}\n\n`);
  while (written < total) {
    section++;
    parts.push(`== Section ${section} ${pick(WORDS)} ==\n`);
    let inSection = 0;
    let sub = 0;
    while (inSection < perSection && written < total) {
      if (inSection > 0 && inSection % 10 === 0) parts.push(`\n=== Part ${section}.${++sub} ===\n`);
      // a paragraph of 3-5 sentences, most cited
      const sentences = 3 + Math.floor(rng() * 3);
      const para: string[] = [];
      for (let s = 0; s < sentences && written < total; s++) {
        const cited = rng() < 0.85;
        para.push(sentence(12 + Math.floor(rng() * 14)) + (cited ? ref() : ''));
        if (cited) inSection++;
      }
      parts.push(para.join(' ') + '\n\n');
      if (rng() < 0.05) parts.push(`* ${sentence(8)}${written < total ? ref() : ''}\n* ${sentence(9)}\n\n`);
    }
    if (section % 25 === 0) parts.push(`{| class="wikitable"\n|-\n! Year !! Value\n|-\n| 1900 || 12 <ref>{{cite web |url=https://table.example/${section} |title=Table}}</ref>\n|}\n\n`);
  }
  parts.push(`== References ==\n{{reflist}}\n\n== Bibliography ==\n* Author1 (1901). ''A book''.\n`);
  return { text: parts.join(''), refs: written, sections: section };
}
