/**
 * Server settings with their defaults, and the parsers for human-written sizes and durations
 * ("2mb", "30s") shared by the CLI and the tests.
 */
import { join } from 'node:path';

const DAY_MS = 24 * 3_600_000;

/**
 * What only the HTTP service has. The pipeline (index, models, retrieval mode, audit settings, live fetch)
 * comes from the composition root's settings, the same ones `veracite verify` and `veracite audit` use.
 */
export interface ServerOptions {
  /** Jobs and annotations; default `<index>/server`. */
  dataDir?: string;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  /** Model-bound requests running at once. */
  concurrency?: number;
  /** Requests waiting for a slot before new ones get 503 (default 8 x concurrency). */
  queue?: number;
  /** Largest request body, bytes. */
  bodyLimit?: number;
  /** Verify / check / search deadline, ms (queue wait included). */
  requestTimeoutMs?: number;
  /** Audit jobs that run at once; the others wait in the job queue. */
  auditConcurrency?: number;
  /** Audit jobs waiting before new submissions get 503. */
  auditQueue?: number;
  /** How long shutdown waits for running audit jobs before persisting them as interrupted, ms. */
  shutdownGraceMs?: number;
  /** Log requests (pino, JSON lines on stdout). */
  log?: boolean;
  /**
   * Bearer token every /v1 request must carry (Authorization: Bearer, or the cookie that opening
   * `/?token=...` sets for the web page). Optional on loopback, required to listen beyond it (exposure.ts).
   */
  token?: string;
  /**
   * Host header names answered besides the listening address, localhost, 127.0.0.1 and [::1] (the DNS
   * rebinding guard, exposure.ts): e.g. the name a reverse proxy forwards. ".example.org" allows every
   * subdomain; "*" turns the check off.
   */
  allowedHosts?: string[];
  /**
   * Origins whose pages may call the API from a browser (CORS, cors.ts): exact origins such as
   * https://en.wikipedia.org for the wiki gadget; never "*". Requests still need the token.
   */
  allowOrigins?: string[];
  /** Finished audit jobs kept (newest first); older ones are deleted with their input. */
  keepJobs?: number;
  /** Finished audit jobs older than this (ms since they finished) are deleted with their input. */
  jobMaxAgeMs?: number;
}

export type ResolvedServerOptions = Required<Omit<ServerOptions, 'token'>> & { token: string | undefined };

/** `indexDir`: the index the server runs on; its `server/` folder holds jobs and annotations by default. */
export function resolveServerOptions(o: ServerOptions, indexDir: string | null | undefined): ResolvedServerOptions {
  const concurrency = o.concurrency ?? 2;
  return {
    // beside a local index; a memory: or opensearch:// index has no folder of its own
    dataDir: o.dataDir ?? join(indexDir && !/^[a-z][a-z0-9+.-]*:/i.test(indexDir) ? indexDir : '.veracite', 'server'),
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 8080,
    concurrency,
    queue: o.queue ?? 8 * concurrency,
    bodyLimit: o.bodyLimit ?? 2 * 1024 * 1024,
    requestTimeoutMs: o.requestTimeoutMs ?? 30_000,
    auditConcurrency: o.auditConcurrency ?? 1,
    auditQueue: o.auditQueue ?? 32,
    shutdownGraceMs: o.shutdownGraceMs ?? 20_000,
    log: o.log ?? false,
    token: o.token || undefined,
    allowedHosts: o.allowedHosts ?? [],
    allowOrigins: o.allowOrigins ?? [],
    // A few hundred jobs is weeks of an editor's use; inputs are up to --body-limit each, so this bounds
    // the disk at roughly keepJobs x body limit.
    keepJobs: o.keepJobs ?? 200,
    jobMaxAgeMs: o.jobMaxAgeMs ?? 30 * DAY_MS,
  };
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };

/** "2mb", "512kb", "1048576" -> bytes. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`not a size: "${text}" (e.g. 2mb, 512kb, 1048576)`);
  const n = Math.round(Number(m[1]) * unit);
  if (n <= 0) throw new Error(`size must be positive: "${text}"`);
  return n;
}

const TIME_UNITS: Record<string, number> = { ms: 1, '': 1000, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: DAY_MS };

/** "30s", "500ms", "2m", "12h", "30d", "10" (seconds) -> ms. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? TIME_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new Error(`not a duration: "${text}" (e.g. 30s, 500ms, 2m, 12h, 30d)`);
  return Math.round(Number(m[1]) * unit);
}
