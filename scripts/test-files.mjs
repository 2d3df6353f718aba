#!/usr/bin/env node
/**
 * The test files for `npm test`, longest first. node:test starts files in the order given, at most
 * --test-concurrency at once; started last, the newcomer test (about 160 s) ran alone at the end of the
 * suite while the other core idled. Longest first (the classic LPT schedule) keeps both cores busy to the
 * end. The list below is the slowest files of the last CI run (the file-times reporter prints them);
 * every other file follows in path order. A name here that no longer exists is skipped.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const SLOW_FIRST = [
  'test/newcomer.test.ts',
  'test/hard-claims.test.ts',
  'src/cli/search-child.test.ts',
  'test/cli.test.ts',
  'src/store/store-contract.test.ts',
  'test/e2e/audit-report.test.ts',
  'src/store/opensearch/opensearch-live.test.ts',
  'src/server/audit-jobs.test.ts',
  'test/llm-judge-unreadable.test.ts',
  'test/llm-judge.test.ts',
  'src/verify/verifier.test.ts',
  'src/server/job-retention.test.ts',
];

function walk(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') walk(p, out);
    } else if (e.name.endsWith('.test.ts')) out.push(relative('.', p));
  }
  return out;
}

const all = [...walk('src', []), ...walk('test', [])].sort();
const present = new Set(all);
const first = SLOW_FIRST.filter((f) => present.has(f));
const rest = all.filter((f) => !first.includes(f));
process.stdout.write([...first, ...rest].join('\n') + '\n');
