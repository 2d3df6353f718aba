/**
 * Source fields from one `<li>` of a rendered Wikipedia reference list (`ol.references`).
 *
 * Citation templates render as `<cite class="citation web cs1">` holding the title link, the italic work,
 * "Archived from the original on ...", and a `.reference-accessdate`; next to it a COinS span
 * (`span.Z3988`, title = URL-encoded key/value pairs) carries the same metadata machine-readably, which we
 * prefer for title, work, date and publisher. Without a cite template the note is free text, whose first
 * external link is the source.
 *
 * When a cite has `url-status=dead`, MediaWiki makes the title link point at the archive and adds
 * "Archived from the original": the "original" link is then the cited URL.
 */
import { hasClass, textOf as text, type HtmlElement } from './html-dom.js';
import type { CitationSource } from './types.js';

export interface HtmlSourceFields {
  source: CitationSource;
  /** A rendered {{dead link}} inside the note. */
  deadLinkTag: boolean;
}

export function readHtmlSource(li: HtmlElement, name?: string): HtmlSourceFields {
  const source: CitationSource = { raw: li.outerHTML };
  if (name) source.name = name;
  const scope = li.querySelector('.reference-text') ?? li;
  const cite = scope.querySelector('cite');
  const links = Array.from((cite ?? scope).querySelectorAll('a.external'));
  const original = links.find((a) => /the original/i.test(text(a)));
  const archived = links.find((a) => /^archived$/i.test(text(a)));
  const main = links.find((a) => a !== original && a !== archived);

  if (original) {
    source.url = original.getAttribute('href') ?? undefined;
    if (main) source.archiveUrl = main.getAttribute('href') ?? undefined;
    source.deadUrl = true;
  } else if (main) {
    source.url = main.getAttribute('href') ?? undefined;
    if (archived) {
      source.archiveUrl = archived.getAttribute('href') ?? undefined;
      source.deadUrl = false;
    }
  }
  if (source.url?.startsWith('//')) source.url = `https:${source.url}`;
  // a bare URL renders as a "free" link whose text is the URL itself, not a title
  if (main && !hasClass(main, 'free')) source.title = unquote(text(main));

  const coins = coinsOf(scope);
  source.title = coins.get('rft.atitle') ?? coins.get('rft.btitle') ?? coins.get('rft.title') ?? source.title;
  source.work = coins.get('rft.jtitle') ?? (cite ? italicWork(cite, main) : undefined);
  source.publisher = coins.get('rft.pub');
  source.date = coins.get('rft.date');

  const whole = text(cite ?? scope);
  const accessed = /Retrieved\s+(?:on\s+)?([^.]+?)\s*\.?$/m.exec(text(scope.querySelector('.reference-accessdate') ?? scope));
  if (accessed) source.accessDate = accessed[1]!.trim();
  const archivedOn = /Archived(?: from the original)?(?: \([A-Za-z]+\))? on\s+([^.]+)/i.exec(whole);
  if (archivedOn && source.archiveUrl) source.archiveDate = archivedOn[1]!.trim();

  const deadLinkTag = Array.from(li.querySelectorAll('sup, span')).some(
    (el) => /Inline-Template/.test(el.getAttribute('class') ?? '') && /dead link/i.test(text(el)),
  );
  for (const k of Object.keys(source) as (keyof CitationSource)[]) if (source[k] === undefined || source[k] === '') delete source[k];
  return { source, deadLinkTag };
}

/** COinS metadata (`<span class="Z3988" title="ctx_ver=...&rft.atitle=...">`). */
function coinsOf(scope: HtmlElement): Map<string, string> {
  const out = new Map<string, string>();
  const title = scope.querySelector('span.Z3988')?.getAttribute('title');
  if (!title) return out;
  for (const [k, v] of new URLSearchParams(title.replace(/&amp;/g, '&'))) if (!out.has(k) && v.trim()) out.set(k, v.trim());
  return out;
}

/** The first italic text of the cite that is not the title link: the newspaper / website / journal. */
function italicWork(cite: HtmlElement, titleLink: HtmlElement | undefined): string | undefined {
  for (const i of Array.from(cite.querySelectorAll('i'))) {
    if (titleLink && (titleLink.contains(i) || i.contains(titleLink))) continue;
    const t = text(i);
    if (t) return t.replace(/\.$/, '');
  }
  return undefined;
}

function unquote(s: string): string {
  return s.replace(/^["“”'‘’]+|["“”'‘’]+$/g, '').trim();
}
