/**
 * Text of an HTML / JATS fragment from an API answer (a search snippet, an abstract), in time linear in its
 * length whatever it holds. `/<[^>]+>/g` is quadratic on a long run of `<` with no `>` (each start scans to
 * the end before failing): a 150 KB answer of `<` stalled a server 10 s. Here each `<` is matched to the next
 * `>` found by one forward search, and when there is none no later `<` can close either, so the scan stops.
 * A tag is what the regex called one: `<`, at least one character that is not `>`, then `>`.
 */

/** Tags that separate paragraphs (JATS and HTML). */
const BLOCK = /^<\/?(?:jats:)?(?:p|sec|title|abstract|div|br)(?=[\s/>])/i;

/** Drops tags; `tag` says what stands in for each one (default: nothing). */
export function stripTags(s: string, tag: (t: string) => string = () => ''): string {
  let out = '';
  let i = 0;
  for (;;) {
    const lt = s.indexOf('<', i);
    if (lt < 0) return out + s.slice(i);
    const gt = s.indexOf('>', lt + 1);
    // No `>` after this `<`: none after any later `<` either, so the rest is text.
    if (gt < 0) return out + s.slice(i);
    if (gt === lt + 1) {
      // `<>` is not a tag.
      out += s.slice(i, gt + 1);
      i = gt + 1;
      continue;
    }
    // A `<` inside the candidate tag starts a tag of its own only if no `>` came first: `<a<b>` is one tag for the regex too.
    out += s.slice(i, lt) + tag(s.slice(lt, Math.min(gt + 1, lt + 64)));
    i = gt + 1;
  }
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&', nbsp: ' ', '#39': "'", '#039': "'" };

/** The few entities APIs use in snippets and abstracts (one pass, so `&amp;lt;` stays `&lt;`). */
export function decodeEntities(s: string): string {
  return s.replace(/&(lt|gt|quot|apos|amp|nbsp|#0?39);/g, (_, e: string) => ENTITIES[e] ?? _);
}

/** A snippet or a title: tags dropped, entities decoded, white space collapsed. */
export function plainText(html: string | null | undefined): string {
  return decodeEntities(stripTags(html ?? '')).replace(/\s+/g, ' ').trim();
}

/** Text of a JATS / HTML fragment: tags dropped, paragraphs kept apart. */
export function markupText(s: string): string {
  return decodeEntities(stripTags(s, (t) => (BLOCK.test(t) ? '\n\n' : '')))
    .split(/\n[^\S\n]*\n\s*/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
}
