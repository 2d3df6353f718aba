/**
 * A 7,000-citation audit through the API (issue 35): GET /v1/health every 50 ms for the whole run, the
 * server's RSS from /proc (VmHWM = peak). Before: health p99 1.1 s, max 2.4 s, RSS 531 -> 992 MB and
 * growing, while every citation rewrote the whole job file. Target: health p99 <= 100 ms.
 *
 *   node --import tsx bench/bench-audit-health.ts [--refs 7000] [--engine fake|real] [--seconds 600]
 *
 * --engine fake: the scripted audit service (src/server/testing/fake-audit.ts, 2 ms a citation), so all
 *   7,000 citations finish and what is measured is the server around the audit: reading the article in a
 *   parse worker, the job store, the event stream. --engine real: the default pipeline on the shipped
 *   SciFact sample index (~2 citations/s on 2 cores), measured for --seconds of the run.
 * Saves bench/results/audit-health-<engine>.json. (Re-runs itself with --serve to start the server.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Veracite } from '../src/app/veracite.js';
import { startServer } from '../src/server/start.js';
import { syntheticWikitext } from '../src/server/testing/large-article.js';
import { buildSampleIndex } from '../src/server/testing/sample-index.js';
import { percentile, saveBenchResult } from './util.js';

const SELF = fileURLToPath(import.meta.url);
const HOSTILE_CHILD = fileURLToPath(new URL('../src/server/testing/hostile-child.ts', import.meta.url));
const { values } = parseArgs({ options: { refs: { type: 'string', default: '7000' }, engine: { type: 'string', default: 'fake' }, seconds: { type: 'string', default: '600' }, serve: { type: 'string' } } });

if (values.serve) {
  const [index, dataDir] = values.serve.split(',');
  const vc = await Veracite.open({ index: { dir: index! }, audit: { maxCitations: 20_000 } });
  const server = await startServer({ dataDir: dataDir!, port: 0, bodyLimit: 32 * 1024 * 1024, shutdownGraceMs: 500 }, vc);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
} else {
  const root = mkdtempSync(join(tmpdir(), 'veracite-audit-health-'));
  const { dir: index } = await buildSampleIndex(join(root, 'index'));
  const args =
    values.engine === 'real'
      ? ['--import', 'tsx', SELF, '--serve', `${index},${join(root, 'data')}`]
      : ['--import', 'tsx', HOSTILE_CHILD, index, JSON.stringify({ server: { bodyLimit: 32 * 1024 * 1024, dataDir: join(root, 'data') }, settings: { audit: { maxCitations: 20_000 } }, delayMs: 2 })];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let url = '';
  for await (const line of createInterface({ input: child.stdout! })) {
    url = (JSON.parse(line) as { url: string }).url;
    break;
  }
  const proc = () => {
    const s = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const mb = (k: string) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024);
    return { rss: mb('VmRSS'), peak: mb('VmHWM') };
  };
  const idle = proc();
  const { text, refs } = syntheticWikitext({ refs: Number(values.refs) });
  const body = JSON.stringify({ wikitext: text, title: 'Large' });
  console.log(`server ${url} (${values.engine} engine), idle RSS ${idle.rss} MB; article ${(text.length / 1e6).toFixed(2)} MB, ${refs} refs`);

  const health: number[] = [];
  const rss: number[] = [];
  let stop = false;
  const polls: Promise<void>[] = [];
  const poller = setInterval(() => {
    const t0 = performance.now();
    polls.push(
      fetch(`${url}/v1/health`).then(async (r) => {
        await r.arrayBuffer();
        health.push(performance.now() - t0);
      }),
    );
  }, 50);
  const sampler = setInterval(() => rss.push(proc().rss), 1000);
  // the same polls with the server idle first: what the machine itself costs a health check
  await new Promise((r) => setTimeout(r, 10_000));
  await Promise.all(polls);
  const baseline = health.splice(0).sort((a, b) => a - b);
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/audits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const submitS = (performance.now() - t0) / 1000;
  const { id } = (await res.json()) as { id: string };
  let job: { status: string; done: number; total: number } = { status: 'queued', done: 0, total: 0 };
  const deadline = performance.now() + Number(values.seconds) * 1000;
  while (!stop) {
    await new Promise((r) => setTimeout(r, 2000));
    // the list leaves results out: polling the job itself would serialise 7,000 results every 2 s
    const list = (await (await fetch(`${url}/v1/audits?limit=5`)).json()) as { jobs: (typeof job & { id: string })[] };
    job = list.jobs.find((j) => j.id === id) ?? job;
    process.stdout.write(`\r${job.status} ${job.done}/${job.total} citations, ${((performance.now() - t0) / 1000).toFixed(0)} s, RSS ${rss.at(-1)} MB   `);
    stop = job.status === 'done' || job.status === 'failed' || performance.now() > deadline;
  }
  clearInterval(poller);
  clearInterval(sampler);
  await Promise.all(polls);
  const runS = (performance.now() - t0) / 1000;
  const peak = proc().peak;
  child.kill('SIGTERM');
  const s = [...health].sort((a, b) => a - b);
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const out = {
    engine: values.engine,
    refs,
    articleMb: +(text.length / 1e6).toFixed(2),
    submitSeconds: r1(submitS),
    runSeconds: r1(runS),
    job: { status: job.status, done: job.done, total: job.total },
    idleHealth: { polls: baseline.length, p50: r1(percentile(baseline, 50)), p99: r1(percentile(baseline, 99)), max: r1(baseline.at(-1) ?? NaN) },
    health: { polls: s.length, p50: r1(percentile(s, 50)), p99: r1(percentile(s, 99)), max: r1(s.at(-1) ?? NaN), over100ms: s.filter((x) => x > 100).length, over200ms: s.filter((x) => x > 200).length },
    rssMb: { idle: idle.rss, first: rss[0], last: rss.at(-1), peak },
    loadAverage: (await import('node:os')).loadavg(),
  };
  console.log(`\n${JSON.stringify(out, null, 2)}`);
  saveBenchResult(`audit-health-${values.engine}`, out);
  process.exit(0);
}
