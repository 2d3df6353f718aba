/**
 * SIDE's simplest baseline for "is this citation likely to fail verification": the depth of the cited
 * URL, i.e. its number of path elements. Home pages and section fronts (depth 0-1) rarely hold the
 * specific fact; deep article URLs usually do. Reported beside the model score, never used in it.
 */
export function urlDepth(url: string | undefined): number | undefined {
  if (!url) return undefined;
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url.replace(/^\/\//, '')}`);
  } catch {
    return undefined;
  }
  return u.pathname.split('/').filter((seg) => seg.length > 0).length;
}
