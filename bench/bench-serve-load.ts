/**
 * Bounded load on `veracite serve`: `--clients` (20) clients keep requests in flight against GET
 * /v1/search and then POST /v1/verify for `--seconds` (60) each, without pause, reported in rounds of
 * `--round` (10) seconds (the answers received in each, the last one including the final drain). The
 * server runs in its own process with the default pipeline (as `veracite serve --index DIR`, its default
 * --concurrency 2 and queue 16) on the shipped SciFact sample index unless --index is given.
 *
 * Per round it reports answers by status, latency of the 200s, and the server process's
 * resident memory (VmRSS from /proc, sampled at the end of the round). Clients behave as the API asks:
 * a 503 (full queue, the documented answer to overload) waits its Retry-After before the next request.
 * Targets: 0 answers other than 200 and 503 (every request has a 60 s client timeout, so a hang counts
 * as an error), and RSS flat across rounds (growth from the 2nd round to the last under 10%; the first
 * round includes warm-up). Prints, saves bench/results/serve-load.json, exits 1 when a target is missed.
 *
 *   node --import tsx bench/bench-serve-load.ts [--clients 20] [--seconds 60] [--round 10] [--index DIR] [--endpoints search,verify]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Veracite } from '../src/app/veracite.js';
import { startServer } from '../src/server/start.js';
import { buildSampleIndex, sampleClaims } from '../src/server/testing/sample-index.js';
import { percentile, saveBenchResult } from './util.js';

const SELF = fileURLToPath(import.meta.url);
const CLIENT_TIMEOUT_MS = 60_000;

/** Server mode: the default pipeline and the default server options. */
async function serve(index: string, dataDir: string): Promise<void> {
  const server = await startServer({ dataDir, port: 0 }, await Veracite.open({ index: { dir: index } }));
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  // Warm-up: the first verify loads nothing more but pays for lazy initialisation (tokenizer tables, caches).
  await fetch(`${server.url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim: 'warm up' }) });
  const o = server.ctx.options;
  if (process.env.VERACITE_BENCH_MEMTRACE) {
    // Where the memory is (JS heap vs native: LanceDB, onnxruntime, TF), to tell growth from a leak.
    const mb = (n: number) => Math.round(n / 2 ** 20);
    setInterval(() => {
      const m = process.memoryUsage();
      process.stderr.write(`  [server memory] rss ${mb(m.rss)} MB, heap used ${mb(m.heapUsed)} / ${mb(m.heapTotal)} MB, external ${mb(m.external)} MB, array buffers ${mb(m.arrayBuffers)} MB\n`);
    }, 10_000).unref();
  }
  process.stdout.write(`${JSON.stringify({ url: server.url, models: server.ctx.verifier.modelInfos().map((m) => m.id), concurrency: o.concurrency, queue: o.queue, timeoutMs: o.requestTimeoutMs })}\n`);
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

interface Round {
  round: number;
  seconds: number;
  requests: number;
  ok: number;
  overloaded: number;
  /** Anything but 200 and 503, by status or network error. */
  errors: Record<string, number>;
  throughput: number;
  latencyMs: { p50: number; p95: number; max: number };
  rssMb: number;
}

type Endpoint = 'search' | 'verify';

function request(url: string, endpoint: Endpoint, text: string): Promise<Response> {
  const signal = AbortSignal.timeout(CLIENT_TIMEOUT_MS);
  if (endpoint === 'search') return fetch(`${url}/v1/search?q=${encodeURIComponent(text)}&k=10`, { signal });
  return fetch(`${url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim: text }), signal });
}

interface Bucket {
  latencies: number[];
  overloaded: number;
  errors: Record<string, number>;
  t0: number;
}

const newBucket = (): Bucket => ({ latencies: [], overloaded: 0, errors: {}, t0: performance.now() });

function closeRound(b: Bucket, round: number, pid: number): Round {
  const took = (performance.now() - b.t0) / 1000;
  const sorted = b.latencies.sort((a, c) => a - c);
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const nErrors = Object.values(b.errors).reduce((a, c) => a + c, 0);
  return {
    round,
    seconds: r1(took),
    requests: sorted.length + b.overloaded + nErrors,
    ok: sorted.length,
    overloaded: b.overloaded,
    errors: b.errors,
    throughput: r1(sorted.length / took),
    latencyMs: { p50: r1(percentile(sorted, 50)), p95: r1(percentile(sorted, 95)), max: r1(sorted.at(-1) ?? NaN) },
    rssMb: rssMb(pid),
  };
}

/**
 * `clients` loops for `seconds` without pause between rounds; every `roundSeconds` the answers received
 * since the last boundary close a round, with the server's RSS at that moment. Requests still in flight at
 * the end are awaited and counted in the last round. A 503 waits its Retry-After.
 */
async function runLoad(url: string, endpoint: Endpoint, opts: { clients: number; seconds: number; roundSeconds: number; texts: string[]; pid: number; onRound: (r: Round) => void }): Promise<Round[]> {
  const rounds: Round[] = [];
  let bucket = newBucket();
  let next = 0;
  const end = performance.now() + opts.seconds * 1000;
  const timer = setInterval(() => {
    if (performance.now() >= end - 1) return; // the last round closes after the drain
    const r = closeRound(bucket, rounds.length + 1, opts.pid);
    bucket = newBucket();
    rounds.push(r);
    opts.onRound(r);
  }, opts.roundSeconds * 1000);
  const client = async () => {
    while (performance.now() < end) {
      const text = opts.texts[next++ % opts.texts.length]!;
      const t = performance.now();
      try {
        const res = await request(url, endpoint, text);
        await res.arrayBuffer();
        if (res.status === 200) bucket.latencies.push(performance.now() - t);
        else if (res.status === 503) {
          bucket.overloaded++;
          const wait = Math.min(Number(res.headers.get('retry-after')) || 1, Math.max(0, (end - performance.now()) / 1000));
          await sleep(wait * 1000);
        } else bucket.errors[String(res.status)] = (bucket.errors[String(res.status)] ?? 0) + 1;
      } catch (e) {
        const key = `network: ${(e as Error).name === 'TimeoutError' ? `no answer in ${CLIENT_TIMEOUT_MS / 1000} s` : (e as Error).message}`;
        bucket.errors[key] = (bucket.errors[key] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, client));
  clearInterval(timer);
  const last = closeRound(bucket, rounds.length + 1, opts.pid);
  rounds.push(last);
  opts.onRound(last);
  return rounds;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      'data-dir': { type: 'string' },
      clients: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '60' },
      round: { type: 'string', default: '10' },
      index: { type: 'string' },
      endpoints: { type: 'string', default: 'search,verify' },
    },
  });
  if (values.serve) return serve(values.serve, values['data-dir']!);
  const clients = Number(values.clients);
  const seconds = Number(values.seconds);
  const roundSeconds = Number(values.round);

  let index = values.index;
  const root = 'tmp/bench/serve';
  if (!index) {
    index = join(root, 'index');
    if (!existsSync(join(index, 'veracite.json'))) await buildSampleIndex(root);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--serve', index, '--data-dir', join(root, 'load-data')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await (async () => {
    for await (const line of createInterface({ input: child.stdout! })) return JSON.parse(line) as { url: string; models: string[]; concurrency: number; queue: number; timeoutMs: number };
    throw new Error('the server process exited before listening');
  })();
  const pid = child.pid!;
  console.log(`server ${info.url} pid ${pid} (models ${info.models.join(', ')}; concurrency ${info.concurrency}, queue ${info.queue}, deadline ${info.timeoutMs / 1000} s), RSS ${rssMb(pid)} MB`);
  console.log(`${clients} clients for ${seconds} s per endpoint, a round every ${roundSeconds} s`);

  const texts = sampleClaims();
  const results: Record<Endpoint, Round[]> = { search: [], verify: [] };
  const endpoints = values.endpoints!.split(',').filter((e): e is Endpoint => e === 'search' || e === 'verify');
  for (const endpoint of endpoints) {
    results[endpoint] = await runLoad(info.url, endpoint, {
      clients,
      seconds,
      roundSeconds,
      texts,
      pid,
      onRound: (r) => {
        const errs = Object.keys(r.errors).length ? ` ERRORS ${JSON.stringify(r.errors)}` : '';
        console.log(
          `${endpoint} round ${r.round} (${r.seconds} s): ${r.requests} answers, ${r.ok} ok (${r.throughput}/s), ${r.overloaded} x 503${errs}; p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms, max ${r.latencyMs.max} ms; server RSS ${r.rssMb} MB`,
        );
      },
    });
  }
  child.kill('SIGTERM');
  await once(child, 'exit');

  const summary: Partial<Record<Endpoint, { requests: number; ok: number; overloaded: number; errors: number; rssMb: number[]; rssGrowthPct: number }>> = Object.fromEntries(
    endpoints.map((e) => {
      const rs = results[e];
      const errors = rs.reduce((a, r) => a + Object.values(r.errors).reduce((x, y) => x + y, 0), 0);
      const steady = rs.length > 1 ? rs.slice(1) : rs;
      const growthPct = Math.round(((steady.at(-1)!.rssMb - steady[0]!.rssMb) / steady[0]!.rssMb) * 1000) / 10;
      return [e, { requests: rs.reduce((a, r) => a + r.requests, 0), ok: rs.reduce((a, r) => a + r.ok, 0), overloaded: rs.reduce((a, r) => a + r.overloaded, 0), errors, rssMb: rs.map((r) => r.rssMb), rssGrowthPct: growthPct }];
    }),
  );
  const missed: string[] = [];
  for (const e of endpoints) {
    const s = summary[e]!;
    console.log(`${e}: ${s.requests} requests, ${s.ok} ok, ${s.overloaded} x 503, ${s.errors} other errors; server RSS per round ${s.rssMb.join(', ')} MB (${s.rssGrowthPct >= 0 ? '+' : ''}${s.rssGrowthPct}% from round 2 to the last)`);
    if (s.errors) missed.push(`${e}: ${s.errors} answers other than 200/503`);
    if (s.rssGrowthPct >= 10) missed.push(`${e}: RSS grew ${s.rssGrowthPct}%`);
  }
  saveBenchResult('serve-load', {
    benchmark: 'serve-load',
    clients,
    seconds,
    roundSeconds,
    server: { concurrency: info.concurrency, queue: info.queue, requestTimeoutMs: info.timeoutMs, models: info.models },
    index,
    summary,
    perRound: results,
  });
  if (missed.length) {
    console.log(`targets missed: ${missed.join('; ')}`);
    process.exitCode = 1;
  } else console.log('targets met: 0 errors other than 503, RSS flat');
}

if (process.argv[1] && resolve(process.argv[1]) === SELF) await main();
