/**
 * Cold start of `veracite serve` (issue 27): the server is started as a user starts it, with an empty model
 * cache (a fresh VERACITE_CACHE_DIR: the word vectors must be converted from their 307 MB JSON), on an index
 * built from the shipped SciFact sample, default pipeline. Measures the time to listen (the "veracite
 * serve: http://..." line), GET /v1/health from the moment it listens, the first POST /v1/verify, and the
 * worst health latency while that first verify runs (health polled every 50 ms): an event loop blocked by a
 * model load shows there; then the same for a second verify (another claim), which loads nothing. Then the same with the cache the cold run built (warm). Prints and saves
 * bench/results/cold-start.json.
 *
 *   node --import tsx bench/bench-cold-start.ts [--runs 1] [--bin bin/veracite.js] [--deadline 30000]
 *
 * Without --bin the CLI runs from the sources (node --import tsx src/cli/entry.ts); --bin runs a built
 * entry (bin/veracite.js uses dist/, so run `npm run build` first), e.g. an older build for a before/after.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildSampleIndex } from '../src/server/testing/sample-index.js';
import { saveBenchResult } from './util.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, bin: { type: 'string' }, deadline: { type: 'string', default: '30000' }, out: { type: 'string', default: 'cold-start' } } });
const CLAIM = 'ALDH1 expression is associated with poorer prognosis in breast cancer.';
const CLAIM2 = 'Vitamin D deficiency increases the risk of bone fractures.';

interface Run {
  cache: 'cold' | 'warm';
  listenMs: number;
  healthMs: number;
  healthStatus: number;
  firstVerifyMs: number;
  firstVerifyStatus: number;
  /** Worst GET /v1/health latency while the first verify ran. */
  healthDuringVerifyMaxMs: number;
  healthDuringVerifyCount: number;
  /** The same for a second verify (another claim): what every verify costs, loading aside. */
  secondVerifyMs: number;
  healthDuringSecondVerifyMaxMs: number;
}

async function timed(url: string, init?: RequestInit, timeoutMs = 120_000): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return { ms: performance.now() - t, status: res.status };
  } catch {
    return { ms: performance.now() - t, status: 0 };
  }
}

async function one(index: string, cacheDir: string, cache: 'cold' | 'warm', deadlineMs: number): Promise<Run> {
  const args = values.bin ? [resolve(values.bin)] : ['--import', 'tsx', 'src/cli/entry.ts'];
  const dataDir = mkdtempSync(join(tmpdir(), 'veracite-cold-data-'));
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...args, 'serve', '--index', index, '--port', '0', '--data-dir', dataDir, '--timeout', `${deadlineMs}ms`], {
    env: { ...process.env, VERACITE_CACHE_DIR: cacheDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const url = await new Promise<string>((ok, fail) => {
      const lines = createInterface({ input: child.stderr! });
      lines.on('line', (l) => {
        process.stderr.write(`  [serve] ${l}\n`);
        const m = /^veracite serve: (http:\/\/\S+?)\/ /.exec(l);
        if (m) ok(m[1]!);
      });
      child.on('exit', (code) => fail(new Error(`serve exited with ${code} before listening`)));
    });
    const listenMs = performance.now() - t0;
    const health = await timed(`${url}/v1/health`);
    /** A verify, with GET /v1/health polled every 50 ms while it runs. */
    const verifyPolled = async (claim: string) => {
      let verifying = true;
      const during: number[] = [];
      const poll = (async () => {
        while (verifying) {
          const h = await timed(`${url}/v1/health`);
          during.push(h.ms);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const verify = await timed(`${url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim }) });
      verifying = false;
      await poll;
      return { verify, during };
    };
    const { verify, during } = await verifyPolled(CLAIM);
    const second = await verifyPolled(CLAIM2);
    return {
      cache,
      listenMs: Math.round(listenMs),
      healthMs: Math.round(health.ms),
      healthStatus: health.status,
      firstVerifyMs: Math.round(verify.ms),
      firstVerifyStatus: verify.status,
      healthDuringVerifyMaxMs: Math.round(Math.max(0, ...during)),
      healthDuringVerifyCount: during.length,
      secondVerifyMs: Math.round(second.verify.ms),
      healthDuringSecondVerifyMaxMs: Math.round(Math.max(0, ...second.during)),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const root = mkdtempSync(join(tmpdir(), 'veracite-cold-'));
try {
  const { dir: index } = await buildSampleIndex(root);
  const runs: Run[] = [];
  const deadline = Number(values.deadline);
  for (let r = 0; r < Number(values.runs); r++) {
    const cacheDir = join(root, `cache-${r}`);
    for (const cache of ['cold', 'warm'] as const) {
      const run = await one(index, cacheDir, cache, deadline);
      console.log(JSON.stringify(run));
      runs.push(run);
    }
  }
  saveBenchResult(values.out!, { entry: values.bin ?? 'src/cli/entry.ts (tsx)', requestDeadlineMs: deadline, runs });
} finally {
  rmSync(root, { recursive: true, force: true });
}
