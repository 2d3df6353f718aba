/**
 * A ready citation for a source found by search, as an editor pastes it: {{cite journal}} for a paper (with
 * its DOI, PubMed / PMC ids, journal, date, authors), {{cite web}} for a page (with its site), both with the
 * access date (the day the text was read). Values are made template-safe: a "|" becomes {{!}}, braces and
 * line breaks are dropped.
 */
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

const safe = (v: string) => v.replace(/[{}]/g, '').replace(/\s+/g, ' ').replace(/\|/g, '{{!}}').trim();

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
  const authors = (s.authors ?? []).slice(0, MAX_AUTHORS);
  authors.forEach((a, i) => fields.push([`author${i + 1}`, a]));
  if ((s.authors?.length ?? 0) > MAX_AUTHORS) fields.push(['display-authors', 'etal']);
  fields.push(['title', s.title]);
  if (journal) {
    fields.push(['journal', s.journal], ['date', s.date], ['doi', s.doi], ['pmid', s.pmid], ['pmc', s.pmcid?.replace(/^PMC/i, '')]);
    // A DOI links the work; a URL is written only when there is no identifier to link it by.
    if (!s.doi && !s.pmid && !s.pmcid) fields.push(['url', s.url]);
  } else {
    fields.push(['url', s.url], ['website', s.publisher ?? siteOf(s.url)], ['date', s.date]);
  }
  fields.push(['access-date', accessDate]);
  const body = fields.filter((f): f is [string, string] => !!f[1]).map(([k, v]) => ` |${k}=${safe(v)}`).join('');
  return `{{cite ${journal ? 'journal' : 'web'}${body}}}`;
}
