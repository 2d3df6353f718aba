/**
 * Archived copies of cited pages: the archive URL the citation gives (`archive-url=`), or the Wayback
 * Machine form `https://web.archive.org/web/<timestamp>id_/<url>` ("id_" asks for the page as captured,
 * without the Wayback toolbar in the HTML), and the reverse: the original URL inside an archive URL, so an
 * index that holds the page under its original URL is found from an archive-only citation.
 */
export const WAYBACK_BASE = 'https://web.archive.org/web/';

/** "2019-05-03", "3 May 2019", "May 2019" -> "20190503" / "201905"; undefined when no year is found. */
export function waybackTimestamp(date: string | undefined): string | undefined {
  if (!date) return undefined;
  const iso = /(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(date);
  if (iso) return `${iso[1]}${iso[2]}${iso[3] ?? ''}`;
  const t = Date.parse(date);
  if (!Number.isNaN(t)) {
    const d = new Date(t);
    return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  }
  return /\b(1[89]\d{2}|2\d{3})\b/.exec(date)?.[1];
}

/**
 * Wayback URL for `url`, closest to `date` (the access date is when the editor saw the page); without a
 * date, "2" lets Wayback pick the capture closest to the year 2000-something, i.e. any.
 */
export function waybackUrl(url: string, date?: string, base = WAYBACK_BASE): string {
  return `${base.endsWith('/') ? base : `${base}/`}${waybackTimestamp(date) ?? '2'}id_/${url}`;
}

/** The original URL inside a Wayback / archive.today-style URL ("/web/2019.../http://x"), if any. */
export function originalFromArchiveUrl(archiveUrl: string): string | undefined {
  const m = /\/(?:web\/)?\d{1,14}[a-z_]*\/((?:https?:)?\/\/.+|[a-z0-9.-]+\.[a-z]{2,}\/.*)$/i.exec(archiveUrl);
  if (!m) return undefined;
  const inner = m[1]!;
  return inner.startsWith('//') ? `http:${inner}` : /^https?:/i.test(inner) ? inner : `http://${inner}`;
}
