/**
 * A model hub on loopback for tests, behaving as the real one does (issue 39), in its URL layout and headers:
 *
 *   GET /<owner>/<name>/resolve/<revision>/<file>   LFS files (.onnx): 302 to a CDN on a second loopback
 *                                                  server (another host:port), with X-Linked-Etag (the
 *                                                  SHA-256), X-Linked-Size and X-Repo-Commit on the 302;
 *                                                  small files: 200 with the git blob's SHA-1 as ETag
 *   GET <cdn>/cdn/<id>                              the bytes; its ETag is the CDN's own (not a SHA-256);
 *                                                  Content-Length, Accept-Ranges, Range -> 206, 416 past the end
 *   GET /api/models/<owner>/<name>/revision/<rev>   {sha, siblings: [{rfilename}]}; with ?blobs=true each
 *                                                  sibling also has blobId and size, LFS ones lfs: {sha256, size}
 *
 * Faults for the tests: `corrupt` (serve changed bytes for a file), `cutOnce` (close the connection after n
 * bytes the first time a file is fetched), `wrongSize` (serve a complete file n bytes shorter, consistently:
 * its Content-Length and ranges say so). Every request (hub and CDN) is recorded.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface HubFile {
  path: string;
  bytes: Buffer;
  sha256: string;
  lfs: boolean;
}

export interface HubRepo {
  repo: string;
  revision: string;
  files: HubFile[];
}

export class LoopbackHub {
  readonly requests: { url: string; range?: string; host: 'hub' | 'cdn'; authorization?: boolean }[] = [];
  readonly corrupt = new Set<string>();
  readonly cutOnce = new Map<string, number>();
  readonly wrongSize = new Map<string, number>();
  private server: Server | undefined;
  private cdnServer: Server | undefined;
  private readonly repos = new Map<string, HubRepo>();
  endpoint = '';
  cdn = '';

  /** Serves a model folder as `repo` at `revision` (every file under it). */
  async addFolder(repo: string, revision: string, dir: string): Promise<HubRepo> {
    const files: HubFile[] = [];
    const walk = async (prefix: string) => {
      for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
        const rel = prefix ? `${prefix}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(rel);
        else {
          const bytes = await readFile(join(dir, rel));
          files.push({ path: rel, bytes, sha256: createHash('sha256').update(bytes).digest('hex'), lfs: rel.endsWith('.onnx') });
        }
      }
    };
    await walk('');
    const r = { repo, revision, files };
    this.repos.set(repo, r);
    return r;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.cdnServer = createServer((req, res) => this.handleCdn(req, res));
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    // Another host as the browser and fetch see it (another port): what the hub's token must not reach.
    await new Promise<void>((ok) => this.cdnServer!.listen(0, '127.0.0.1', ok));
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.cdn = `http://127.0.0.1:${(this.cdnServer.address() as AddressInfo).port}`;
    return this.endpoint;
  }

  async stop(): Promise<void> {
    for (const s of [this.server, this.cdnServer]) {
      s?.closeAllConnections();
      await new Promise<void>((ok) => (s ? s.close(() => ok()) : ok()));
    }
  }

  private record(req: IncomingMessage, url: URL, host: 'hub' | 'cdn'): void {
    this.requests.push({ url: url.pathname + url.search, host, ...(req.headers.range ? { range: req.headers.range } : {}), ...(req.headers.authorization ? { authorization: true } : {}) });
  }

  private handleCdn(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    this.record(req, url, 'cdn');
    const cdn = /^\/cdn\/([0-9a-f]{64})$/.exec(url.pathname);
    if (cdn) {
      for (const r of this.repos.values()) {
        const f = r.files.find((x) => x.sha256 === cdn[1]);
        if (f) return this.send(req, res, f);
      }
    }
    res.writeHead(404).end();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    this.record(req, url, 'hub');
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/]+)$/.exec(url.pathname);
    if (api) {
      const r = this.repos.get(api[1]!);
      if (!r || (decodeURIComponent(api[2]!) !== r.revision && api[2] !== 'main')) return void res.writeHead(404).end('{"error":"not found"}');
      // As the real API: file sizes and LFS hashes only when asked for with ?blobs=true.
      const blobs = url.searchParams.get('blobs') === 'true';
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({
          id: r.repo,
          sha: r.revision,
          siblings: r.files.map((f) => ({ rfilename: f.path, ...(blobs ? { blobId: gitBlobSha1(f.bytes), size: f.bytes.length, ...(f.lfs ? { lfs: { sha256: f.sha256, size: f.bytes.length, pointerSize: 134 } } : {}) } : {}) })),
        }),
      );
    }
    const m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    const r = m ? this.repos.get(m[1]!) : undefined;
    if (!m || !r || (decodeURIComponent(m[2]!) !== r.revision && m[2] !== 'main')) return void res.writeHead(404, { 'x-error-code': 'RepoNotFound' }).end('Repository not found');
    const f = r.files.find((x) => x.path === decodeURIComponent(m[3]!));
    if (!f) return void res.writeHead(404, { 'x-error-code': 'EntryNotFound' }).end('Entry not found');
    if (f.lfs) {
      // The hub answers LFS files with a redirect to its CDN, carrying the file's SHA-256 as X-Linked-Etag.
      res.writeHead(302, { location: `${this.cdn}/cdn/${f.sha256}?x-signature=test`, 'x-linked-etag': `"${f.sha256}"`, 'x-linked-size': String(f.bytes.length), 'x-repo-commit': r.revision, etag: `"${gitBlobSha1(f.bytes)}"` });
      return void res.end();
    }
    this.send(req, res, f);
  }

  private send(req: IncomingMessage, res: ServerResponse, f: HubFile): void {
    let body = f.bytes;
    if (this.corrupt.has(f.path)) {
      body = Buffer.from(body);
      body[Math.floor(body.length / 2)] = body[Math.floor(body.length / 2)]! ^ 0xff;
    }
    const shorter = this.wrongSize.get(f.path);
    if (shorter !== undefined) body = body.subarray(0, body.length - shorter);
    // A CDN's ETag is its own (here an MD5, as S3's); the hub's for a small file is the git blob's SHA-1.
    const etag = f.lfs ? `"${createHash('md5').update(body).digest('hex')}"` : `"${gitBlobSha1(f.bytes)}"`;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= body.length && range) return void res.writeHead(416, { 'content-range': `bytes */${body.length}`, etag }).end();
    const part = body.subarray(start);
    res.writeHead(range ? 206 : 200, {
      'content-length': String(part.length),
      'accept-ranges': 'bytes',
      etag,
      ...(range ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    const cut = this.cutOnce.get(f.path);
    if (cut !== undefined && cut < part.length) {
      this.cutOnce.delete(f.path);
      // A graceful close (FIN) after the bytes: a reset could make the client drop bytes it has not read
      // yet (a busy machine), and then there would be nothing to resume from.
      res.write(part.subarray(0, cut), () => res.socket?.end());
      return;
    }
    res.end(part);
  }
}

/** Git's object id of a file's bytes (what the hub's ETag and blobId of a small file are). */
function gitBlobSha1(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
