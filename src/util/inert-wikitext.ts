/**
 * Text and URLs from outside (a search provider's title, a source's words in a finding) made inert in wikitext,
 * for templates an editor pastes: a proposed {{cite ...}} (search/cite-template.ts) or a {{failed verification}}
 * tag's reason (verify/decision.ts, audit/todo.ts). Pasted into the wiki editor, such a value can end nothing
 * (no `</ref>`, `}}`, `|`), start nothing (no `<!--`, `[[`, `{{`, tags) and expand into nothing (no `~~~~`
 * signature, no `__NOINDEX__` behaviour switch). HTML character references (Help:Special characters) and, in a
 * URL, percent-encoding (Template:Cite web, "URL") survive a paste: the editor keeps them as typed, and the
 * parser decodes them only when the page is rendered, after the template's parameters are split and after the
 * pre-save transform (which expands ~~~~ and subst:). The gadget (src/wiki-gadget) and the web page
 * (src/web/todo.js) apply the same rule in their own JavaScript.
 */

/** Characters of wikitext markup in text, as character references: tags and comments, links, templates, parameter names. */
const TEXT_REFERENCES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '[': '&#91;', ']': '&#93;', '{': '&#123;', '}': '&#125;', '=': '&#61;' };

/**
 * A provider's text as an inert template value: one line; `<`, `>`, `[`, `]`, `{`, `}`, `=` as character
 * references; runs of three or more tildes (signatures) and doubled underscores (behaviour switches such as
 * __NOINDEX__) broken by references; "://" (a bare link) as "&#58;//"; an existing reference-like "&...;" kept as
 * typed ("&amp;..."); and "|" as {{!}} (last: its own braces are the template's, not the provider's).
 */
export function inertText(v: string): string {
  return v
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;')
    .replace(/[<>[\]{}=]/g, (c) => TEXT_REFERENCES[c]!)
    .replace(/~{3,}/g, (m) => '&#126;'.repeat(m.length))
    .replace(/_(?=_)/g, '&#95;')
    .replace(/:\/\//g, '&#58;//')
    .replace(/\|/g, '{{!}}');
}

/**
 * A provider's URL as an inert |url= value: only http(s); space, quotes, `<`, `>`, `[`, `]`, `{`, `}`, `|`, `~`,
 * `^`, backtick percent-encoded, as are doubled underscores (the same address to any server; `~` is unreserved,
 * RFC 3986 2.3). A "=" stays: a named parameter ends at its first "=", later ones are its value (Help:Template),
 * and "%3D" would change a query. Undefined for anything that is not an http(s) URL.
 */
export function inertUrl(u: string): string | undefined {
  const url = u.trim();
  if (!/^https?:\/\/[^\s]/i.test(url)) return undefined;
  return url.replace(/[\s"'<>[\]{}|~^`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).replace(/_(?=_)/g, '%5F');
}
