/** Shared helpers for benchmark scripts: sizes, memory, percentiles, saving results. */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';

export function dirSize(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? dirSize(p) : statSync(p).size;
  }
  return total;
}

export function peakRssMb(): number {
  // resourceUsage().maxRSS is in kilobytes on Linux.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function machine(): Record<string, unknown> {
  return { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGb: Math.round(os.totalmem() / 2 ** 30), node: process.version };
}

export function saveBenchResult(name: string, result: Record<string, unknown>): string {
  mkdirSync('bench/results', { recursive: true });
  const path = `bench/results/${name}.json`;
  writeFileSync(path, JSON.stringify({ ...result, machine: machine(), createdAt: new Date().toISOString() }, null, 2));
  console.log(`saved ${path}`);
  return path;
}
