/**
 * The verification engine's cost (issue 43 item 5), one engine per run (--profile verifier | lite), each figure
 * beside the machine's load average when it was taken:
 *
 * 1. verify one claim: `Veracite.verify` on the SciFact sample index (BM25, as `veracite verify` on the demo
 *    index), the first claim untimed (models load on first use), then p50 / p95 over --n claims;
 * 2. the sample audit: `veracite audit data/samples/audit/Breast_cancer_risk_factors.txt --sources ... --no-index`
 *    (24 citations), a fresh process as a user runs it, wall time;
 * 3. serving RSS: `veracite serve` in its own process, after a verify and a citation check through the API
 *    (the engine loaded), its peak RSS (VmHWM from /proc, the worker threads' memory included);
 * 4. CLI start: `veracite --version`, median of 5 fresh processes (the model loads on first use only).
 *
 *   node --import tsx bench/bench-engine.ts --profile verifier [--n 20]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Veracite } from '../src/app/veracite.js';
import { percentile, saveBenchResult } from './util.js';

const { values } = parseArgs({ options: { profile: { type: 'string', default: 'verifier' }, n: { type: 'string', default: '20' }, skip: { type: 'string', default: '' } } });
const profile = values.profile!;
const skip = new Set(values.skip!.split(',').filter(Boolean));
const load = () => +os.loadavg()[0]!.toFixed(2);
const bin = ['--import', 'tsx', 'src/cli/entry.ts'];
const out: Record<string, unknown> = { profile };
const work = await mkdtemp(join(tmpdir(), 'veracite-bench-engine-'));

try {
  // 1. verify one claim
  if (!skip.has('verify')) {
    const dir = join(work, 'index');
    const writer = await Veracite.open({ index: { dir }, models: { profile } }, { create: true });
    await writer.ingest('data/samples/scifact/corpus.jsonl');
    await writer.close();
    const vc = await Veracite.open({ index: { dir }, retrieval: { mode: 'bm25' }, models: { profile } });
    const claims = readFileSync('data/samples/scifact/claims_dev.jsonl', 'utf8').split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as { claim: string }).claim);
    const n = Math.min(Number(values.n), claims.length - 1);
    const t0 = performance.now();
    await vc.verify(claims[0]!);
    const first = performance.now() - t0;
    const loadBefore = load();
    const ms: number[] = [];
    for (const c of claims.slice(1, n + 1)) {
      const t = performance.now();
      await vc.verify(c);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    out.verify = { claims: n, firstMs: Math.round(first), p50Ms: Math.round(percentile(ms, 50)), p95Ms: Math.round(percentile(ms, 95)), loadBefore, loadAfter: load(), engine: vc.models.profile ? `${vc.models.profile.name}@${vc.models.profile.hash}` : 'lite' };
    console.log(`verify one claim (${profile}): first ${Math.round(first)} ms, p50 ${Math.round(percentile(ms, 50))} ms, p95 ${Math.round(percentile(ms, 95))} ms over ${n} claims (load ${loadBefore} -> ${load()})`);
    await vc.close();
  }

  // 2. the sample audit, as a user runs it
  if (!skip.has('audit')) {
    const loadBefore = load();
    const t = performance.now();
    const r = spawnSync(process.execPath, [...bin, 'audit', 'data/samples/audit/Breast_cancer_risk_factors.txt', '--sources', 'data/samples/audit/sources', '--no-index', '--profile', profile, '--out', join(work, 'audit.json')], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const s = (performance.now() - t) / 1000;
    if (r.status !== 0 && r.status !== 1) throw new Error(`audit exited ${r.status}: ${r.stderr.slice(-2000)}`);
    const report = JSON.parse(readFileSync(join(work, 'audit.json'), 'utf8')) as { citations: unknown[] };
    out.sampleAudit = { citations: report.citations.length, seconds: +s.toFixed(1), loadBefore, loadAfter: load() };
    console.log(`sample audit (${profile}): ${report.citations.length} citations in ${s.toFixed(1)} s (load ${loadBefore} -> ${load()})`);
  }

  // 3. serving RSS with the engine loaded
  if (!skip.has('serve')) {
    const dir = join(work, 'index');
    const port = 20000 + Math.floor(Math.random() * 20000);
    const server = spawn(process.execPath, [...bin, 'serve', '--index', dir, '--port', String(port), '--profile', profile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    server.stdout.on('data', (d) => (log += d));
    server.stderr.on('data', (d) => (log += d));
    try {
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 600; i++) {
        if (await fetch(`${base}/v1/health`).then((r) => r.ok, () => false)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const post = (path: string, body: unknown) => fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, text: await r.text() }));
      const v = await post('/v1/verify', { claim: 'Vitamin D deficiency increases the risk of fractures.' });
      const c = await post('/v1/citations/check', { claim: 'Loss of Scribble cooperates with the c-myc oncogene to transform epithelial cells by blocking apoptosis.', source: { text: readFileSync('data/samples/audit/sources/scifact-45638119.txt', 'utf8') } });
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
      const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
      out.serve = { verifyStatus: v.status, checkStatus: c.status, peakRssMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024), load: load() };
      console.log(`serve (${profile}): verify ${v.status}, check ${c.status}; peak RSS ${Math.round(kb('VmHWM') / 1024)} MB, RSS ${Math.round(kb('VmRSS') / 1024)} MB (load ${load()})`);
      if (v.status !== 200 || c.status !== 200) console.log(`  answers: ${v.text.slice(0, 300)} | ${c.text.slice(0, 300)}`);
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      if (!out.serve) console.log(log.slice(-2000));
    }
  }

  // 4. CLI start
  if (!skip.has('start')) {
    const runs: number[] = [];
    const target = existsSync('dist/cli/main.js') ? ['bin/veracite.js'] : bin;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      spawnSync(process.execPath, [...target, '--version']);
      runs.push(performance.now() - t);
    }
    runs.sort((a, b) => a - b);
    out.start = { command: `${target.join(' ')} --version`, medianMs: Math.round(percentile(runs, 50)), load: load() };
    console.log(`CLI start (${target.join(' ')} --version): median ${Math.round(percentile(runs, 50))} ms of 5 (load ${load()})`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
saveBenchResult(`engine-${profile}`, out);
