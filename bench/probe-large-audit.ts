/**
 * Resource probe for one large article (issue 27: a 5.2 MB wikitext with 8,691 refs ran `veracite audit
 * --limit 20` out of memory, and through the API pushed the server to 1.7 GB with a 47 s health check).
 * Not a test: it prints and saves figures (bench/results/large-audit.json); the targets are no crash, peak
 * RSS <= 1.5 GB, and /v1/health p99 <= 500 ms while a large audit and 8 verify clients run.
 *
 *   node --import tsx bench/probe-large-audit.ts [--refs 8691] [--seconds 60] [--clients 8] [--index DIR] [--no-cli]
 *
 * 1. CLI: `veracite audit big.txt --index IDX --limit 20` in a child process (default pipeline), its peak
 *    RSS from /usr/bin/time; then the same without --limit, which audit.maxCitations must refuse at once.
 * 2. API: the server in a child process (default pipeline, --body-limit 16mb, --max-citations raised so the
 *    whole article is audited), the article submitted as one job, `--clients` POST /v1/verify loops, and
 *    GET /v1/health every 100 ms for `--seconds`; the server's RSS is sampled from /proc (VmHWM = peak).
 *
 * The index is the shipped SciFact sample (src/server/testing/sample-index.ts), as bench-serve.ts uses.
 * (Internally re-runs itself with --serve to start the server process.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Veracite } from '../src/app/veracite.js';
import { startServer } from '../src/server/start.js';
import { syntheticWikitext } from '../src/server/testing/large-article.js';
import { buildSampleIndex, sampleClaims } from '../src/server/testing/sample-index.js';
import { percentile, saveBenchResult } from './util.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = 'tmp/bench/large-audit';
const MAX_CITATIONS = 20_000;

async function serve(index: string): Promise<void> {
  const vc = await Veracite.open({ index: { dir: index }, audit: { maxCitations: MAX_CITATIONS } });
  const server = await startServer({ dataDir: join(ROOT, `serve-data-${Date.now()}`), port: 0, bodyLimit: 16 * 1024 * 1024, shutdownGraceMs: 1000 }, vc);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  await fetch(`${server.url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim: 'warm up' }) });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
}

/** VmHWM / VmRSS of a process, MB (Linux). */
function procMb(pid: number): { peak: number; rss: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
    return { peak: Math.round(kb('VmHWM') / 1024), rss: Math.round(kb('VmRSS') / 1024) };
  } catch {
    return undefined;
  }
}

const round = (x: number) => Math.round(x * 10) / 10;
function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: round(percentile(s, 50)), p99: round(percentile(s, 99)), max: round(s.at(-1) ?? NaN) };
}

/** `veracite audit` from source in a child, peak RSS by /usr/bin/time. */
function cliAudit(args: string[]) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, '--import', 'tsx', 'src/cli/entry.ts', 'audit', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = round((performance.now() - t0) / 1000);
  const kb = Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const stderr = r.stderr.replace(/maxrss_kb=\d+\s*$/, '').trim();
  return { exitCode: r.status, seconds, peakRssMb: Math.round(kb / 1024), stdout: r.stdout.trim().split('\n').slice(0, 2).join(' / '), stderr: stderr.split('\n').slice(-2).join(' / ') };
}

/**
 * `seconds` of load: `clients` POST /v1/verify loops and a GET /v1/health every 100 ms, the server's RSS
 * sampled after each health check; `also` runs alongside (the job watcher).
 */
async function window(url: string, pid: number, seconds: number, clients: number, claims: string[], also?: (deadline: number) => Promise<void>) {
  const deadline = performance.now() + seconds * 1000;
  const health: number[] = [];
  const healthErrors: string[] = [];
  let peakMb = 0;
  let maxRss = 0;
  const probe = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      try {
        const r = await fetch(`${url}/v1/health`);
        await r.arrayBuffer();
        if (r.status === 200) health.push(performance.now() - t);
        else healthErrors.push(String(r.status));
      } catch (e) {
        healthErrors.push((e as Error).message);
      }
      const m = procMb(pid);
      if (m) {
        maxRss = Math.max(maxRss, m.rss);
        peakMb = Math.max(peakMb, m.peak);
      }
      await sleep(Math.max(0, 100 - (performance.now() - t)));
    }
  };
  const verifyLatency: number[] = [];
  const verifyErrors: Record<string, number> = {};
  let next = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      let status: string;
      try {
        const r = await fetch(`${url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim: claims[next++ % claims.length] }) });
        await r.arrayBuffer();
        status = String(r.status);
      } catch (e) {
        status = `network: ${(e as Error).message}`;
      }
      if (status === '200') verifyLatency.push(performance.now() - t);
      else verifyErrors[status] = (verifyErrors[status] ?? 0) + 1;
    }
  };
  await Promise.all([probe(), ...(also ? [also(deadline)] : []), ...Array.from({ length: clients }, client)]);
  return { health: stats(health), healthErrors, verify: stats(verifyLatency), verifyErrors, peakMb, maxRss };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      refs: { type: 'string', default: '8691' },
      seconds: { type: 'string', default: '60' },
      clients: { type: 'string', default: '8' },
      index: { type: 'string' },
      'no-cli': { type: 'boolean', default: false },
    },
  });
  if (values.serve) return serve(values.serve);
  mkdirSync(ROOT, { recursive: true });
  let index = values.index;
  if (!index) {
    index = join(ROOT, 'index');
    if (!existsSync(join(index, 'veracite.json'))) await buildSampleIndex(ROOT);
  }
  const article = syntheticWikitext({ refs: Number(values.refs) });
  const file = join(ROOT, 'Large-article.txt');
  writeFileSync(file, article.text);
  const bytes = Buffer.byteLength(article.text);
  console.log(`article: ${(bytes / 1e6).toFixed(2)} MB, ${article.refs} refs, ${article.sections} sections (${file})`);

  // 1. CLI
  const skipped = { exitCode: 0, seconds: 0, peakRssMb: 0, stdout: 'skipped (--no-cli)', stderr: '' };
  const limited = values['no-cli'] ? skipped : cliAudit([file, '--index', index, '--limit', '20', '--quiet']);
  console.log(`CLI --limit 20: exit ${limited.exitCode} in ${limited.seconds} s, peak RSS ${limited.peakRssMb} MB: ${limited.stdout}`);
  const capped = values['no-cli'] ? skipped : cliAudit([file, '--index', index, '--quiet']);
  console.log(`CLI without --limit: exit ${capped.exitCode} in ${capped.seconds} s, peak RSS ${capped.peakRssMb} MB: ${capped.stderr}`);

  // 2. API
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--serve', index], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await (async () => {
    for await (const line of createInterface({ input: child.stdout! })) return JSON.parse(line) as { url: string };
    throw new Error('the server process exited before listening');
  })();
  const idle = procMb(child.pid!);
  console.log(`server ${info.url}, RSS ${idle?.rss} MB after warm-up; submitting the article, ${values.clients} verify clients, ${values.seconds} s...`);
  const url = info.url;
  const claims = sampleClaims();
  const seconds = Number(values.seconds);
  const clients = Number(values.clients);
  // Baseline: the same verify clients and health checks, no audit (what the audit adds is the difference).
  const base = await window(url, child.pid!, seconds, clients, claims);
  console.log(`baseline (verifies only): server peak RSS ${base.peakMb} MB; health p50 ${base.health.p50} ms, p99 ${base.health.p99} ms, max ${base.health.max} ms; verify ${base.verify.n} ok, p99 ${base.verify.p99} ms`);
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/audits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wikitext: article.text, title: 'Large article' }) });
  if (res.status !== 202) throw new Error(`POST /v1/audits: ${res.status} ${await res.text()}`);
  const job = (await res.json()) as { id: string };
  let parsedAt: number | undefined;
  let progress = { status: '', done: 0, total: 0 };
  const watch = async (deadline: number) => {
    while (performance.now() < deadline) {
      const r = await fetch(`${url}/v1/audits/${job.id}`).then((x) => x.json() as Promise<{ status: string; done: number; total: number; error?: string }>).catch(() => undefined);
      if (r) {
        progress = { status: r.status, done: r.done, total: r.total };
        if (parsedAt === undefined && r.total > 0) parsedAt = performance.now() - t0;
        if (r.status === 'failed') throw new Error(`the audit job failed: ${r.error}`);
      }
      await sleep(1000);
    }
  };
  const loaded = await window(url, child.pid!, seconds, clients, claims, watch);
  let peakMb = loaded.peakMb;
  const final = procMb(child.pid!);
  if (final) peakMb = Math.max(peakMb, final.peak);
  child.kill('SIGTERM');
  await once(child, 'exit');

  const h = loaded.health;
  const v = loaded.verify;
  const healthErrors = loaded.healthErrors;
  const verifyErrors = loaded.verifyErrors;
  const elapsed = round((performance.now() - t0) / 1000);
  console.log(`API: job ${progress.status}, parsed in ${parsedAt === undefined ? '-' : round(parsedAt / 1000)} s, ${progress.done} of ${progress.total} citations audited in ${elapsed} s`);
  console.log(`  server peak RSS ${peakMb} MB (idle ${idle?.rss} MB); health p50 ${h.p50} ms, p99 ${h.p99} ms, max ${h.max} ms over ${h.n} checks (${healthErrors.length} errors)`);
  console.log(`  verify: ${v.n} ok (${round(v.n / elapsed)} req/s), p50 ${v.p50} ms, p99 ${v.p99} ms; errors ${JSON.stringify(verifyErrors)}`);
  const targets = { noCrash: limited.exitCode === 0 && healthErrors.length === 0, peakRssMbMax: 1536, healthP99MsMax: 500 };
  const met = targets.noCrash && limited.peakRssMb <= 1536 && peakMb <= 1536 && h.p99 <= 500;
  console.log(`targets (no crash, peak RSS <= 1.5 GB, health p99 <= 500 ms): ${met ? 'met' : 'NOT met'}`);
  saveBenchResult(clients === 8 && !values['no-cli'] ? 'large-audit' : `large-audit-clients${clients}`, {
    benchmark: 'probe-large-audit',
    article: { bytes, refs: article.refs, sections: article.sections },
    index,
    cli: { limit20: limited, noLimit: capped },
    loadAverageAtEnd: os.loadavg().map(round),
    api: {
      seconds: elapsed,
      clients,
      baselineVerifiesOnly: { serverPeakRssMb: base.peakMb, healthMs: base.health, healthErrors: base.healthErrors.length, verify: { ...base.verify, errors: base.verifyErrors } },
      maxCitations: MAX_CITATIONS,
      job: { ...progress, parsedSeconds: parsedAt === undefined ? null : round(parsedAt / 1000) },
      serverRssMb: { idle: idle?.rss, peak: peakMb, maxSampled: loaded.maxRss },
      healthMs: h,
      healthErrors: healthErrors.length,
      verify: { ...v, throughput: round(v.n / elapsed), errors: verifyErrors },
    },
    targets,
    met,
  });
  if (!met) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === SELF) await main();
