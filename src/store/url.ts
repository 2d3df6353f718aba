/**
 * URL normalisation, so a citation's URL finds the indexed copy of its page regardless of scheme,
 * "www.", trailing slashes, fragments or tracking parameters.
 */
const TRACKING = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref|ref_src)$/i;

export function normalizeUrl(raw: string): string {
  const trimmed = raw.trim();
  let u: URL;
  try {
    u = new URL(trimmed.includes('://') ? trimmed : `http://${trimmed}`);
  } catch {
    return trimmed.toLowerCase();
  }
  const host = u.hostname.toLowerCase().replace(/^www\d?\./, '');
  const params = [...u.searchParams.entries()].filter(([k]) => !TRACKING.test(k)).sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  let path = u.pathname.replace(/\/+$/, '').replace(/\/index\.(html?|php)$/i, '');
  try {
    path = decodeURI(path);
  } catch {
    /* keep the encoded form */
  }
  const port = u.port && u.port !== '80' && u.port !== '443' ? `:${u.port}` : '';
  return `${host}${port}${path}${query}`;
}
