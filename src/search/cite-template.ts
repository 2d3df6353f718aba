/**
 * A ready citation for a source found by search, as an editor pastes it: {{cite journal}} for a paper (with
 * its DOI, PubMed / PMC ids, journal, date, authors), {{cite web}} for a page (with its site), both with the
 * access date (the day the text was read). Every value comes from a provider (a title, an author, a journal,
 * a URL) and is made inert in wikitext before it goes in (`inertText`, `inertUrl`): pasted into the wiki
 * editor, it can end nothing (no `</ref>`, `}}`, `|`), start nothing (no `<!--`, `[[`, `{{`, tags) and
 * expand into nothing (no `~~~~` signature, no `__NOINDEX__` behaviour switch).
 *
 * How (the documented ways, chosen to survive a paste): text gets HTML character references
 * (Help:Special characters; WP:CITEFORMAT), a URL gets percent-encoding (Template:Cite web, "URL":
 * space, " ' < > [ ] { } | must be percent-encoded), a pipe in text is {{!}} (Help:Template). A paste into the
 * source editor keeps the characters as typed; the references are decoded only when the page is rendered,
 * after the template's parameters are split and after the pre-save transform (which expands ~~~~ and
 * subst:), so `&#126;&#126;&#126;&#126;` shows four tildes and signs nothing, `&lt;/ref>` shows "</ref>" and
 * closes nothing. <nowiki> is not used: a provider's own "</nowiki>" would end it, CS1 counts its strip
 * marker against some parameters, and in a URL it breaks the link. Identifiers are kept only in their own
 * shape (PubMed and PMC ids: digits; a DOI: 10.<registrant>/<suffix>).
 */
import { inertText, inertUrl } from '../util/inert-wikitext.js';

export { inertText, inertUrl };

export interface CitableSource {
  url: string;
  title: string;
  doi?: string;
  pmid?: string;
  pmcid?: string;
  journal?: string;
  date?: string;
  authors?: readonly string[];
  publisher?: string;
}

/** Authors written out; more are summed up as "et al." (display-authors). */
const MAX_AUTHORS = 6;

/** An identifier kept only in its own shape: PubMed / PMC ids are digits, a DOI is 10.<registrant>/<suffix> (made inert). */
function digits(v: string | undefined): string | undefined {
  return v && /^\d{1,10}$/.test(v.trim()) ? v.trim() : undefined;
}
function doiOf(v: string | undefined): string | undefined {
  const d = v?.trim();
  return d && /^10\.\d{4,9}\/\S+$/.test(d) ? inertText(d) : undefined;
}

function siteOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}

/** `accessDate`: YYYY-MM-DD. */
export function citeTemplate(s: CitableSource, accessDate: string): string {
  const journal = !!(s.doi || s.pmid || s.pmcid || s.journal);
  const fields: [string, string | undefined][] = [];
  const text = (v: string | undefined) => (v === undefined ? undefined : inertText(v));
  const authors = (s.authors ?? []).slice(0, MAX_AUTHORS);
  authors.forEach((a, i) => fields.push([`author${i + 1}`, text(a)]));
  if ((s.authors?.length ?? 0) > MAX_AUTHORS) fields.push(['display-authors', 'etal']);
  fields.push(['title', text(s.title)]);
  const [doi, pmid, pmc] = [doiOf(s.doi), digits(s.pmid), digits(s.pmcid?.replace(/^PMC/i, ''))];
  if (journal) {
    fields.push(['journal', text(s.journal)], ['date', text(s.date)], ['doi', doi], ['pmid', pmid], ['pmc', pmc]);
    // A DOI links the work; a URL is written only when there is no identifier to link it by.
    if (!doi && !pmid && !pmc) fields.push(['url', inertUrl(s.url)]);
  } else {
    fields.push(['url', inertUrl(s.url)], ['website', text(s.publisher ?? siteOf(s.url))], ['date', text(s.date)]);
  }
  fields.push(['access-date', /^\d{4}-\d{2}-\d{2}$/.test(accessDate) ? accessDate : undefined]);
  const body = fields.filter((f): f is [string, string] => !!f[1]).map(([k, v]) => ` |${k}=${v}`).join('');
  return `{{cite ${journal ? 'journal' : 'web'}${body}}}`;
}
