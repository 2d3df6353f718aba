/**
 * CLI start-up (issue 31, "a CLI that answers at once"): wall time of `veracite --version`, `--help`, a BM25
 * `search` and a first `verify` on the demo index (the shipped SciFact sample, built with `veracite demo`),
 * each a fresh process as a user runs it; several runs, median reported. With --before, an older build is
 * timed in the same runs, alternating with this one, so both see the same load. The load average is saved
 * beside the figures: on a busy machine every figure grows.
 *
 *   node --import tsx bench/bench-startup.ts [--runs 7] [--bin bin/veracite.js] [--before /tmp/old/bin/veracite.js] [--index .veracite/demo]
 *
 * bin/veracite.js runs dist/ (run `npm run build` first). Without --index a demo index is built in a
 * temporary folder (by --bin's `veracite demo`). The word-vector cache is the user's (warm), as after install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { saveBenchResult } from './util.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    bin: { type: 'string', default: 'bin/veracite.js' },
    before: { type: 'string' },
    index: { type: 'string' },
    out: { type: 'string', default: 'startup' },
  },
});
const runs = Number(values.runs);
const bins: Record<string, string> = { after: resolve(values.bin) };
if (values.before) bins.before = resolve(values.before);

const tmp = mkdtempSync(join(tmpdir(), 'veracite-startup-'));
const index = values.index ?? join(tmp, 'demo');
if (!values.index) {
  console.error(`building the demo index in ${index}`);
  const r = spawnSync(process.execPath, [bins.after!, 'demo', '--index', index, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`veracite demo failed (${r.status})`);
} else if (!existsSync(index)) throw new Error(`${index}: no index there (build one with "veracite demo --index ${index}")`);

const COMMANDS: Record<string, string[]> = {
  version: ['--version'],
  help: ['--help'],
  search: ['search', 'vitamin D deficiency and fracture risk', '--index', index, '-k', '5'],
  verify: ['verify', 'Vitamin D deficiency increases the risk of fractures.', '--index', index],
};
/** The targets of issue 31, seconds on an idle 2-core machine. */
const TARGETS: Record<string, number> = { version: 0.3, help: 0.3, search: 1, verify: 2.5 };

function timeOnce(bin: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const s = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return s;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const times: Record<string, Record<string, number[]>> = {};
const loadBefore = os.loadavg();
try {
  // One warm-up each (file cache), then alternate builds within every run so both see the same load.
  for (const bin of Object.values(bins)) for (const args of Object.values(COMMANDS)) timeOnce(bin, args);
  for (let r = 0; r < runs; r++) {
    for (const [cmd, args] of Object.entries(COMMANDS)) {
      for (const [build, bin] of Object.entries(bins)) ((times[build] ??= {})[cmd] ??= []).push(timeOnce(bin, args));
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const loadAfter = os.loadavg();

const result: Record<string, unknown> = {};
for (const [build, byCmd] of Object.entries(times)) {
  result[build] = Object.fromEntries(Object.entries(byCmd).map(([cmd, xs]) => [cmd, { medianS: +median(xs).toFixed(3), minS: +Math.min(...xs).toFixed(3), runsS: xs.map((x) => +x.toFixed(3)) }]));
}
console.log(`CLI start-up, median of ${runs} runs (load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')} -> ${loadAfter.map((x) => x.toFixed(2)).join(' ')}):`);
for (const cmd of Object.keys(COMMANDS)) {
  const cells = Object.keys(times).map((b) => `${b} ${median(times[b]![cmd]!).toFixed(2)} s`);
  console.log(`  ${cmd.padEnd(8)} ${cells.join('  ')}  (target <= ${TARGETS[cmd]} s idle)`);
}
saveBenchResult(values.out, {
  bench: 'startup',
  runs,
  commands: Object.fromEntries(Object.entries(COMMANDS).map(([k, v]) => [k, `veracite ${v.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}`])),
  bins,
  targetsS: TARGETS,
  loadAverage: { before: loadBefore, after: loadAfter },
  ...result,
});
