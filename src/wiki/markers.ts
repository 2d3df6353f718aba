/**
 * Placeholder tokens that stand in for citations while markup is turned into plain text.
 *
 * wtf_wikipedia (and our HTML walk) throw references away, and with them their positions. So each ref is
 * replaced by a token made of Unicode private-use characters before the text is rendered: such characters
 * never occur in articles, carry no markup meaning, and survive wtf_wikipedia's cleanup unchanged (checked
 * on all 71 shared articles). Where a token ends up in the rendered text is where the citation is.
 *
 * Token: U+E000, a kind letter, the decimal id, U+E001.
 *   c — a citation (a ref, a reused named ref, an sfn template); id indexes the caller's ref table.
 *   u — a {{citation needed}} tag with no ref before it; id indexes the caller's uncited table.
 */

export type MarkKind = 'c' | 'u';

/**
 * Written between a sentence's final punctuation and a marker token right after it (mark-wikitext.ts).
 * wtf_wikipedia's sentence split wants whitespace after "." ; with a token there it found no end in the
 * whole paragraph and rescanned it from every position (quadratic: minutes for a 1 MB paragraph whose
 * sentences end in refs). U+FEFF is whitespace to its regex and is removed with the tokens.
 */
export const SENTENCE_GAP = '\uFEFF';

const OPEN = '\uE000';
const CLOSE = '\uE001';
/** What a token becomes during cleanup: one character, so cleanup regexes can see it. */
const SLOT = '\uE002';
const TOKEN = /\uE000([cu])(\d+)\uE001/g;

export function marker(kind: MarkKind, id: number): string {
  return `${OPEN}${kind}${id}${CLOSE}`;
}

export interface Mark {
  kind: MarkKind;
  id: number;
  /** Offset in the cleaned text where the token stood. */
  pos: number;
}

/** Drop every token (headings, titles: places where a citation has no claim). */
export function dropMarkers(s: string): string {
  return s.replace(TOKEN, '').replace(/[\uE000-\uE002\uFEFF]/g, '');
}

/** All token ids of one kind in `s`, in order. */
export function markerIds(s: string, kind: MarkKind): number[] {
  const ids: number[] = [];
  for (const m of s.matchAll(TOKEN)) if (m[1] === kind) ids.push(Number(m[2]));
  return ids;
}

/**
 * Remove the tokens from one line of rendered text and say where each stood.
 *
 * The line is also tidied, because removing refs and templates leaves debris behind: "Bodmin ( ) is"
 * when only a ref was in the parentheses, double spaces where an empty template was. Tidying happens
 * with the tokens still in place (as one SLOT character each), so positions stay right. A token between
 * sentence punctuation and a letter ("end.<ref/>Next") leaves a space, or the sentence splitter would see
 * one word.
 */
export function stripMarkers(line: string): { text: string; marks: Mark[] } {
  const queue: { kind: MarkKind; id: number }[] = [];
  let s = line.replace(TOKEN, (_m, kind: MarkKind, id: string) => {
    queue.push({ kind, id: Number(id) });
    return SLOT;
  });
  s = s
    .replace(/[\uE000\uE001\uFEFF]/g, '')
    .replace(/\(\s*((?:\uE002\s*)*)\)/g, (_m, slots: string) => slots.replace(/\s+/g, ''))
    .replace(/[ \t]{2,}/g, ' ')
    .trim();

  let text = '';
  const marks: Mark[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch !== SLOT) {
      // a removed token must not leave two spaces in a row
      if (ch === ' ' && (text === '' || text.endsWith(' '))) continue;
      text += ch;
      continue;
    }
    const next = queue.shift()!;
    // the citation belongs to the text before it, not to the space that separated it from that text
    marks.push({ ...next, pos: text.trimEnd().length });
    const after = s[i + 1];
    if (after !== undefined && after !== SLOT && /[.!?"'”’)\]]$/.test(text) && /[\p{L}\p{N}]/u.test(after)) text += ' ';
  }
  // a trailing removed token can leave a trailing space
  const trimmed = text.trimEnd();
  for (const m of marks) if (m.pos > trimmed.length) m.pos = trimmed.length;
  return { text: trimmed, marks };
}
