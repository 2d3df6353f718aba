/**
 * A model hub on loopback for tests, in the hub's real URL layout and headers:
 *
 *   GET /<owner>/<name>/resolve/<revision>/<file>   302 to /cdn/<sha256> (X-Linked-Etag, X-Repo-Commit) for
 *                                                  "LFS" files (.onnx), 200 directly for small files;
 *                                                  ETag, Content-Length, Accept-Ranges, Range -> 206
 *   GET /api/models/<owner>/<name>/revision/<rev>   {sha, siblings: [{rfilename, lfs?: {sha256, size}}]}
 *
 * Faults for the tests: `corrupt` (serve changed bytes for a file), `cutOnce` (close the connection after n
 * bytes the first time a file is fetched). Every request is recorded.
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
  readonly requests: { url: string; range?: string }[] = [];
  readonly corrupt = new Set<string>();
  readonly cutOnce = new Map<string, number>();
  private server: Server | undefined;
  private readonly repos = new Map<string, HubRepo>();
  endpoint = '';

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
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.endpoint;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((ok) => (this.server ? this.server.close(() => ok()) : ok()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    this.requests.push({ url: url.pathname, ...(req.headers.range ? { range: req.headers.range } : {}) });
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/]+)$/.exec(url.pathname);
    if (api) {
      const r = this.repos.get(api[1]!);
      if (!r || (decodeURIComponent(api[2]!) !== r.revision && api[2] !== 'main')) return void res.writeHead(404).end('{"error":"not found"}');
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ id: r.repo, sha: r.revision, siblings: r.files.map((f) => ({ rfilename: f.path, ...(f.lfs ? { lfs: { sha256: f.sha256, size: f.bytes.length } } : {}) })) }));
    }
    const cdn = /^\/cdn\/([0-9a-f]{64})$/.exec(url.pathname);
    if (cdn) {
      for (const r of this.repos.values()) {
        const f = r.files.find((x) => x.sha256 === cdn[1]);
        if (f) return this.send(req, res, f);
      }
      return void res.writeHead(404).end();
    }
    const m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    const r = m ? this.repos.get(m[1]!) : undefined;
    if (!m || !r || (decodeURIComponent(m[2]!) !== r.revision && m[2] !== 'main')) return void res.writeHead(404, { 'x-error-code': 'RepoNotFound' }).end('Repository not found');
    const f = r.files.find((x) => x.path === decodeURIComponent(m[3]!));
    if (!f) return void res.writeHead(404, { 'x-error-code': 'EntryNotFound' }).end('Entry not found');
    if (f.lfs) {
      // The hub answers LFS files with a redirect to its CDN, carrying the file's SHA-256 as X-Linked-Etag.
      res.writeHead(302, { location: `/cdn/${f.sha256}`, 'x-linked-etag': `"${f.sha256}"`, 'x-linked-size': String(f.bytes.length), 'x-repo-commit': r.revision });
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
    const etag = f.lfs ? `"${f.sha256}"` : `"${createHash('sha1').update(f.bytes).digest('hex')}"`;
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
