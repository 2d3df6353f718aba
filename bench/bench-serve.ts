/**
 * Load benchmark of `veracite serve`: the server runs in its own process on 127.0.0.1 (default pipeline,
 * index built from the shipped SciFact sample unless --index is given), and this process keeps
 * `--clients` POST /v1/verify requests in flight for `--seconds`, cycling through the sample's claims.
 * Reports throughput, latency percentiles and errors (any non-200 counts), prints them and saves
 * bench/results/serve.json.
 *
 *   node --import tsx bench/bench-serve.ts [--seconds 30] [--clients 8] [--concurrency 2] [--index DIR]
 *
 * (Internally re-runs itself with --serve to start the server process.)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Veracite } from '../src/app/veracite.js';
import { startServer } from '../src/server/start.js';
import { buildSampleIndex, sampleClaims } from '../src/server/testing/sample-index.js';
import { peakRssMb, percentile, saveBenchResult } from './util.js';

const SELF = fileURLToPath(import.meta.url);

/** Server mode: the default pipeline, as `veracite serve --index DIR` builds it. */
async function serve(index: string, concurrency: number): Promise<void> {
  const server = await startServer({ dataDir: join(index, '..', 'bench-serve-data'), port: 0, concurrency }, await Veracite.open({ index: { dir: index } }));
  const verifier = server.ctx.verifier;
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  // Warm-up: the first verify pays for lazy initialisation (tokenizer tables, LanceDB caches).
  await fetch(`${server.url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim: 'warm up' }) });
  process.stdout.write(`${JSON.stringify({ url: server.url, models: verifier.modelInfos().map((m) => m.id), rssMb: peakRssMb() })}\n`);
}

export interface LoadResult {
  requests: number;
  ok: number;
  errors: number;
  errorsByStatus: Record<string, number>;
  seconds: number;
  throughput: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
}

/** `clients` loops, each sending its next request when the previous one is answered. */
export async function runLoad(url: string, opts: { seconds: number; clients: number; claims: string[] }): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorsByStatus: Record<string, number> = {};
  let next = 0;
  const t0 = performance.now();
  const deadline = t0 + opts.seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const claim = opts.claims[next++ % opts.claims.length]!;
      const t = performance.now();
      let status: string;
      try {
        const res = await fetch(`${url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim }) });
        await res.arrayBuffer();
        status = String(res.status);
      } catch (e) {
        status = `network: ${(e as Error).message}`;
      }
      if (status === '200') latencies.push(performance.now() - t);
      else errorsByStatus[status] = (errorsByStatus[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, client));
  const seconds = (performance.now() - t0) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const errors = Object.values(errorsByStatus).reduce((a, b) => a + b, 0);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    requests: latencies.length + errors,
    ok: latencies.length,
    errors,
    errorsByStatus,
    seconds: round(seconds),
    throughput: round(latencies.length / seconds),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? NaN),
      mean: round(sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1)),
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      seconds: { type: 'string', default: '30' },
      clients: { type: 'string', default: '8' },
      concurrency: { type: 'string', default: '2' },
      index: { type: 'string' },
    },
  });
  if (values.serve) return serve(values.serve, Number(values.concurrency));

  let index = values.index;
  if (!index) {
    const root = 'tmp/bench/serve';
    index = join(root, 'index');
    if (!existsSync(join(index, 'veracite.json'))) await buildSampleIndex(root);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--serve', index, '--concurrency', values.concurrency], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) return JSON.parse(line) as { url: string; models: string[]; rssMb: number };
    throw new Error('the server process exited before listening');
  })();
  const info = await ready;
  console.log(`server ${info.url} (models ${info.models.join(', ')}); ${values.clients} clients for ${values.seconds} s...`);
  const claims = sampleClaims();
  const load = await runLoad(info.url, { seconds: Number(values.seconds), clients: Number(values.clients), claims });
  const health = (await (await fetch(`${info.url}/v1/health`)).json()) as { index: { documents: number; snapshot: string } };
  child.kill('SIGTERM');
  await once(child, 'exit');

  console.log(`${load.ok} ok, ${load.errors} errors in ${load.seconds} s: ${load.throughput} req/s; latency p50 ${load.latencyMs.p50} ms, p95 ${load.latencyMs.p95} ms, p99 ${load.latencyMs.p99} ms, max ${load.latencyMs.max} ms`);
  if (load.errors) console.log(`errors by status: ${JSON.stringify(load.errorsByStatus)}`);
  saveBenchResult('serve', {
    benchmark: 'serve',
    endpoint: 'POST /v1/verify',
    clients: Number(values.clients),
    serverConcurrency: Number(values.concurrency),
    durationSeconds: Number(values.seconds),
    index: { dir: index, documents: health.index.documents, snapshot: health.index.snapshot },
    models: info.models,
    claims: claims.length,
    ...load,
  });
  if (load.errors) process.exitCode = 1;
}

// Run only as a script (runLoad is importable).
if (process.argv[1] && resolve(process.argv[1]) === SELF) await main();
