/**
 * Small pieces of wikitext syntax shared by the ref scanner and the source-field reader.
 */

/** Template names compared the way MediaWiki does: first letter case-insensitive, "_" = " ", no "Template:". */
export function normTemplateName(name: string): string {
  return name
    .replace(/_/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^template\s*:\s*/i, '')
    .toLowerCase();
}

/** The name of the template opening at `at` (which points at "{{"). */
export function templateNameAt(raw: string, at: number): string {
  const m = /^\{\{\s*([^|{}\n]*)/.exec(raw.slice(at, at + 200));
  return m ? normTemplateName(m[1]!) : '';
}

/**
 * End (exclusive) of the template opening at `at`, counting nested "{{ }}". Unclosed templates end at the
 * end of their line, which is where MediaWiki would stop treating them as templates in practice.
 */
export function templateEnd(raw: string, at: number): number {
  let depth = 0;
  for (let i = at; i < raw.length - 1; i++) {
    if (raw[i] === '{' && raw[i + 1] === '{') {
      depth++;
      i++;
    } else if (raw[i] === '}' && raw[i + 1] === '}') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  const eol = raw.indexOf('\n', at);
  return eol < 0 ? raw.length : eol;
}

/** Short-citation templates that make a footnote or an inline citation of their own. */
export const SHORT_CITATION_TEMPLATES = new Set([
  'sfn', 'sfnp', 'sfnm', 'sfnmp', 'harv', 'harvnb', 'harvp', 'harvcol', 'harvcolnb',
]);

/** Inline maintenance templates, by the tag they set. Redirect names as used on English Wikipedia. */
export const FAILED_VERIFICATION_TEMPLATES = new Set([
  'failed verification', 'fv', 'failed-verification', 'verification failed', 'failedverification',
  'not in citation', 'not in source', 'not in ref', 'nir', 'source does not support',
]);
export const CITATION_NEEDED_TEMPLATES = new Set([
  'citation needed', 'cn', 'fact', 'cite needed', 'citeneeded', 'citation-needed', 'citation required',
  'needs citation', 'ref needed', 'refneeded', 'source needed', 'sourceneeded',
]);
export const DEAD_LINK_TEMPLATES = new Set([
  'dead link', 'deadlink', 'dead url', 'deadurl', 'broken link', 'link broken', '404', 'dl',
]);
/** Page-number template written right after a ref (`<ref name="a"/>{{rp|12}}`); belongs to that ref. */
export const PAGE_TEMPLATES = new Set(['rp', 'r p']);

/**
 * Templates whose content is a list of reference definitions (list-defined references): refs inside them
 * define names for reuse elsewhere and are not citations in the prose.
 */
export function isReferenceListTemplate(name: string): boolean {
  return /^(reflist|references|refbegin|reference list|notelist|notes|ref list)\b/.test(name);
}

/** Parser tags whose content is not wikitext: a "<ref>" inside them is text, not a reference. */
export const VERBATIM_TAGS = new Set([
  'nowiki', 'pre', 'math', 'syntaxhighlight', 'source', 'chem', 'ce', 'score', 'timeline', 'hiero', 'graph',
  'templatedata', 'mapframe', 'maplink',
]);

/** Read `name` and `group` from a ref's attribute text (`name="a b"`, `name='x'`, `name=x`). */
export function refAttributes(attrs: string): { name?: string; group?: string } {
  const out: { name?: string; group?: string } = {};
  for (const m of attrs.matchAll(/\b(name|group)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)) {
    let value = m[2] ?? m[3] ?? m[4] ?? '';
    // `<ref name=x/>`: the slash closes the tag, it is not part of the name
    if (m[4] !== undefined) value = value.replace(/\/$/, '');
    value = value.replace(/\s+/g, ' ').trim();
    if (value) out[m[1]!.toLowerCase() as 'name' | 'group'] = value;
  }
  return out;
}
