/**
 * Downloads one hub repository snapshot into a folder, file by file, in the hub's URL layout
 * (`<endpoint>/<repo>/resolve/<revision>/<file>`; redirects to a CDN are followed by hand, see below):
 *
 * - each file streams into `<file>.part`; an interrupted download resumes from the bytes already there
 *   (HTTP Range; a server that ignores the range restarts it from zero);
 * - a complete `.part` is hashed (SHA-256) and compared with the pinned checksum, else with the SHA-256 the
 *   hub publishes (the API listing with `?blobs=true`, or the `X-Linked-Etag` of the hub's redirect to its
 *   CDN, read before following it: the CDN's own ETag is not a SHA-256), else recorded as first seen (and
 *   said so: only a checked file is "verified"); a mismatch, or a complete file of the wrong size, deletes
 *   the `.part` and refuses the download (HubChecksumError), naming the file, both hashes and what to do;
 * - a verified file is renamed into place (atomic), and the folder's manifest (`veracite-download.json`,
 *   MANIFEST_FILE) is written last, atomically: a folder without it is never used (a half-download).
 *
 * Offline (`offline: true`, HF_HUB_OFFLINE=1 or TRANSFORMERS_OFFLINE=1) never touches the network.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { writeFileAtomic } from '../../util/atomic-file.js';
import type { CatalogFile } from './catalog.js';

export const MANIFEST_FILE = 'veracite-download.json';
export const DEFAULT_ENDPOINT = 'https://huggingface.co';

export class HubError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HubError';
  }
}

/** A downloaded (or imported) file whose bytes are not the pinned ones. */
export class HubChecksumError extends HubError {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly actual: string,
    how: string,
    /** What differs when it is not (only) the hash, e.g. the size. */
    detail?: string,
  ) {
    super(`${file}: ${detail ? `${detail}; ` : ''}SHA-256 ${actual} does not match the pinned ${expected} (${how}); the file was deleted and nothing was installed. Pull again; if it fails again the upstream file changed: check the profile's revision, or the mirror behind the hub endpoint`);
    this.name = 'HubChecksumError';
  }
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
  /**
   * How the bytes were checked: the checksum pinned in the profile, the SHA-256 the hub publishes (its
   * API listing: 'hub'; the X-Linked-Etag of its CDN redirect: 'etag'), or not at all: recorded at first
   * download ('first-seen', never called verified).
   */
  verifiedBy: 'pinned' | 'hub' | 'etag' | 'first-seen';
}

/** How a manifest entry was checked, in the words every message uses. */
export function checkedAs(v: ManifestFile['verifiedBy']): string {
  return v === 'pinned' ? 'verified (pinned SHA-256)' : v === 'first-seen' ? 'recorded (first seen)' : "verified (the hub's SHA-256)";
}

export interface DownloadManifest {
  format: 'veracite-model-download';
  version: 1;
  repo: string;
  revision: string;
  endpoint: string;
  files: ManifestFile[];
  completedAt: string;
}

export interface DownloadProgress {
  file: string;
  /** Bytes of this file on disk (including resumed ones). */
  bytes: number;
  total?: number;
  resumedFrom?: number;
  done?: boolean;
  /** With `done`: how the file was checked. */
  verifiedBy?: ManifestFile['verifiedBy'];
}

export interface DownloadOptions {
  endpoint?: string;
  repo: string;
  revision: string;
  files: readonly CatalogFile[];
  dest: string;
  offline?: boolean;
  /** Bearer token (private or gated repositories, enterprise mirrors). */
  token?: string;
  onProgress?: (p: DownloadProgress) => void;
  /** Milliseconds without progress before a request is abandoned. */
  timeoutMs?: number;
}

export function isOffline(explicit?: boolean): boolean {
  if (explicit !== undefined) return explicit;
  const on = (v: string | undefined) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
  return on(process.env.HF_HUB_OFFLINE) || on(process.env.TRANSFORMERS_OFFLINE);
}

/** The hub endpoint: explicit, else VERACITE_HUB_ENDPOINT, else HF_ENDPOINT, else huggingface.co. */
export function hubEndpoint(explicit?: string): string {
  return (explicit ?? process.env.VERACITE_HUB_ENDPOINT ?? process.env.HF_ENDPOINT ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
}

export function resolveUrl(endpoint: string, repo: string, revision: string, file: string): string {
  return `${endpoint}/${repo}/resolve/${encodeURIComponent(revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The SHA-256 the hub gives for an LFS file: X-Linked-Etag on its redirect to the CDN (the real hub), or
 * the ETag of a hub that serves the file itself when that ETag is a SHA-256. A CDN's ETag (after the
 * redirect) is its own and is never read as a checksum.
 */
function etagSha(headers: Headers, names: readonly string[]): string | undefined {
  for (const name of names) {
    const v = headers.get(name)?.replace(/^W\//, '').replace(/"/g, '').toLowerCase();
    if (v && SHA256.test(v)) return v;
  }
  return undefined;
}

/**
 * GET `url`, following redirects by hand (at most 5): the hub's 302 to its CDN carries the file's SHA-256
 * (X-Linked-Etag), which fetch's own following loses. The token goes to the hub's host only.
 */
async function fetchFollowing(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<{ res: Response; linkedSha?: string }> {
  let current = url;
  let linkedSha: string | undefined;
  const origin = new URL(url).origin;
  for (let hop = 0; hop <= 5; hop++) {
    const sameHost = new URL(current).origin === origin;
    const h = sameHost ? headers : Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'authorization'));
    const res = await fetch(current, { headers: h, redirect: 'manual', signal });
    if (res.status < 300 || res.status >= 400 || !res.headers.get('location')) {
      // Served by the hub itself: its ETag may be the SHA-256; a CDN's never counts.
      const sha = linkedSha ?? etagSha(res.headers, sameHost ? ['x-linked-etag', 'etag'] : ['x-linked-etag']);
      return { res, ...(sha ? { linkedSha: sha } : {}) };
    }
    linkedSha ??= etagSha(res.headers, ['x-linked-etag']);
    await res.body?.cancel();
    current = new URL(res.headers.get('location')!, current).href;
  }
  throw new HubError(`${url}: more than 5 redirects`);
}

function safeRelative(file: string): string {
  if (!file || file.startsWith('/') || file.split('/').some((p) => p === '..' || p === '') || file.includes('\\')) throw new HubError(`unsafe file name in the profile: ${JSON.stringify(file)}`);
  return file.split('/').join(sep);
}

export async function readManifest(dir: string): Promise<DownloadManifest | undefined> {
  const p = join(dir, MANIFEST_FILE);
  if (!existsSync(p)) return undefined;
  const m = JSON.parse(await readFile(p, 'utf8')) as DownloadManifest;
  if (m.format !== 'veracite-model-download') throw new HubError(`${p}: not a veracite download manifest`);
  return m;
}

/** Downloads (or resumes) every file, verifies it, and writes the manifest last. Returns the manifest. */
export async function downloadRepo(o: DownloadOptions): Promise<DownloadManifest> {
  const endpoint = hubEndpoint(o.endpoint);
  if (isOffline(o.offline)) {
    throw new HubError(`offline (HF_HUB_OFFLINE / --offline): not downloading ${o.repo}; pull it on a machine with internet and copy the folder here with "veracite models import <folder>"`);
  }
  if (!o.files.length) throw new HubError(`${o.repo}: the profile lists no files to download`);
  await mkdir(o.dest, { recursive: true });
  // A manifest from an earlier pull of another revision no longer describes the folder.
  await rm(join(o.dest, MANIFEST_FILE), { force: true });
  const files: ManifestFile[] = [];
  for (const f of o.files) files.push(await downloadFile(endpoint, o, f));
  const manifest: DownloadManifest = { format: 'veracite-model-download', version: 1, repo: o.repo, revision: o.revision, endpoint, files, completedAt: new Date().toISOString() };
  await writeFileAtomic(join(o.dest, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

async function downloadFile(endpoint: string, o: DownloadOptions, f: CatalogFile): Promise<ManifestFile> {
  const target = join(o.dest, safeRelative(f.path));
  const part = `${target}.part`;
  await mkdir(dirname(target), { recursive: true });
  const checked: ManifestFile['verifiedBy'] = f.published === 'hub' ? 'hub' : 'pinned';
  // Already installed and intact (a pull repeated after an interruption in a later file).
  if (f.sha256 && existsSync(target) && (await sha256File(target)) === f.sha256) {
    const size = (await stat(target)).size;
    o.onProgress?.({ file: f.path, bytes: size, total: size, done: true, verifiedBy: checked });
    return { path: f.path, size, sha256: f.sha256, verifiedBy: checked };
  }
  const url = resolveUrl(endpoint, o.repo, o.revision, f.path);
  let have = existsSync(part) ? (await stat(part)).size : 0;
  const headers: Record<string, string> = { 'user-agent': 'veracite-models/1' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (have > 0) headers.range = `bytes=${have}-`;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new HubError(`${url}: no data for ${(o.timeoutMs ?? 60_000) / 1000} s`)), o.timeoutMs ?? 60_000);
  };
  arm();
  let res: Response;
  let linkedSha: string | undefined;
  try {
    ({ res, linkedSha } = await fetchFollowing(url, headers, controller.signal));
  } catch (e) {
    clearTimeout(timer);
    throw new HubError(`${url}: ${(e as Error).message}${have ? ` (${have} bytes kept in ${part}; pull again to resume)` : ''}`);
  }
  if (res.status === 416 && have > 0) {
    // The .part already holds the whole file as the server has it (the range starts at its end): check
    // it as it is (a wrong size is a checksum error below, never "resume" again).
    await res.body?.cancel();
  } else if (res.status !== 200 && res.status !== 206) {
    clearTimeout(timer);
    await res.body?.cancel();
    const why = res.status === 401 || res.status === 403 ? ' (gated or private: pass a token with HF_TOKEN)' : res.status === 404 ? ' (no such repository, revision or file)' : '';
    throw new HubError(`${url}: HTTP ${res.status}${why}`);
  } else {
    const resumed = res.status === 206 ? have : 0;
    if (res.status === 200) have = 0; // the server ignored the range: start over
    const length = Number(res.headers.get('content-length') ?? NaN);
    const total = Number.isFinite(length) ? resumed + length : f.size;
    o.onProgress?.({ file: f.path, bytes: have, ...(total !== undefined ? { total } : {}), ...(resumed ? { resumedFrom: resumed } : {}) });
    const out = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
    let bytes = have;
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      arm();
      o.onProgress?.({ file: f.path, bytes, ...(total !== undefined ? { total } : {}) });
    });
    // Not stream.pipeline: on an error it destroys the file stream and drops the bytes still buffered
    // there, and the .part would not hold what was received. Each chunk is written, and the file is
    // closed (flushed) whatever happens, so an interrupted pull resumes from every byte it got.
    try {
      for await (const chunk of body) {
        if (!out.write(chunk)) await once(out, 'drain');
      }
    } catch (e) {
      throw new HubError(`${url}: download interrupted at ${bytes} bytes (${(e as Error).message}); kept in ${part}: pull again to resume`);
    } finally {
      clearTimeout(timer);
      await new Promise<void>((done, fail) => out.end((e?: Error | null) => (e ? fail(e) : done())));
    }
    if (total !== undefined && bytes < total) throw new HubError(`${url}: download interrupted at ${bytes} of ${total} bytes; kept in ${part}: pull again to resume`);
  }
  clearTimeout(timer);
  const size = (await stat(part)).size;
  const actual = await sha256File(part);
  // The transfer finished (an interruption threw above): a file of another size than the pinned one is
  // complete and wrong, not partial. Deleted, so that the next pull starts over instead of looping on a
  // Range request past its end.
  if (f.size !== undefined && size !== f.size) {
    await rm(part, { force: true });
    throw new HubChecksumError(f.path, f.sha256 ?? '(no pinned hash)', actual, f.published === 'hub' ? "the hub's listing" : 'pinned in the profile', `the server sent a complete file of ${size} bytes, the ${f.published === 'hub' ? "hub's listing gives" : 'profile pins'} ${f.size}`);
  }
  const etag = linkedSha;
  let verifiedBy: ManifestFile['verifiedBy'];
  if (f.sha256) {
    if (actual !== f.sha256) {
      await rm(part, { force: true });
      throw new HubChecksumError(f.path, f.sha256, actual, f.published === 'hub' ? "published in the hub's listing" : 'pinned in the profile');
    }
    verifiedBy = checked;
  } else if (etag) {
    if (actual !== etag) {
      await rm(part, { force: true });
      throw new HubChecksumError(f.path, etag, actual, "the hub's ETag");
    }
    verifiedBy = 'etag';
  } else {
    verifiedBy = 'first-seen';
  }
  await rename(part, target);
  o.onProgress?.({ file: f.path, bytes: size, total: size, done: true, verifiedBy });
  return { path: f.path, size, sha256: actual, verifiedBy };
}

/** Re-hashes every file of a manifest; the problems found (empty: intact). */
export async function verifyFolder(dir: string, manifest: DownloadManifest): Promise<string[]> {
  const problems: string[] = [];
  for (const f of manifest.files) {
    const p = join(dir, safeRelative(f.path));
    if (!existsSync(p)) {
      problems.push(`${f.path}: missing`);
      continue;
    }
    const actual = await sha256File(p);
    if (actual !== f.sha256) problems.push(`${f.path}: SHA-256 ${actual}, the manifest records ${f.sha256}`);
  }
  return problems;
}
