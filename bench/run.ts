/**
 * `npm run bench`: every benchmark script in sequence, each in its own process so peak RSS and timings
 * are per operation. Set BENCH_PASSAGES for a smaller run (default 500000).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const scripts = ['bench/bench-ingest.ts', 'bench/bench-search.ts', 'bench/bench-corpus-stats.ts', 'bench/bench-dense.ts', 'bench/embed.ts'].filter((s) => existsSync(s));
for (const s of scripts) {
  console.log(`\n== ${s}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', s, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
