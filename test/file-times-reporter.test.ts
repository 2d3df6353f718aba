/**
 * Issue 45 item 5: the test command (package.json "test", which .ci/run runs) names each test file's time,
 * and a file still running long, while its output still ends with the node:test spec reporter's own
 * summary. Run here on generated test files with the reporters exactly as package.json gives them.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

/** The reporter flags of package.json's "test" script. */
function reporterFlags(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { test: string } }).scripts.test;
  const flags: string[] = script.match(/--test-reporter(?:-destination)?=\S+/g) ?? [];
  assert.ok(flags.includes('--test-reporter=./test/reporter/file-times.mjs') && flags.includes('--test-reporter=spec'), script);
  return flags;
}

/** This process's environment without the test runner's own marker (a child `node --test` would report to it). */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env['NODE_TEST_CONTEXT'];
  return env;
}

describe('per-file test times', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-filetimes-'));
    await writeFile(join(dir, 'quick.test.mjs'), "import { it } from 'node:test';\nit('is quick', () => {});\n");
    await writeFile(join(dir, 'slow.test.mjs'), "import { it } from 'node:test';\nit('takes a while', () => new Promise((r) => setTimeout(r, 1500)));\n");
    await writeFile(join(dir, 'broken.test.mjs'), "import { it } from 'node:test';\nimport assert from 'node:assert';\nit('fails', () => assert.equal(1, 2));\n");
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names each file's time, the slowest first, a file still running, and ends with the spec summary", () => {
    const files = ['broken.test.mjs', 'quick.test.mjs', 'slow.test.mjs'].map((f) => join(dir, f));
    const r = spawnSync(process.execPath, ['--test', '--test-concurrency=3', ...reporterFlags(), ...files], {
      encoding: 'utf8',
      timeout: 120_000,
      env: childEnv({ FILE_TIMES_SLOW_MS: '500', FILE_TIMES_EVERY_MS: '400' }),
    });
    assert.equal(r.status, 1, 'one file fails');
    const lines = r.stdout.trimEnd().split('\n');
    for (const f of ['quick', 'slow', 'broken']) assert.ok(lines.some((l) => new RegExp(`^⏱ +\\d+\\.\\d s  .*${f}\\.test\\.mjs`).test(l)), `${f}: a time line\n${r.stdout}`);
    assert.ok(lines.some((l) => /^⏱ +\d+\.\d s  .*broken\.test\.mjs  \(failed\)$/.test(l)), 'a failed file is marked');
    assert.ok(lines.some((l) => /^⏱ still running after \d+\.\d s: .*slow\.test\.mjs$/.test(l)), `the slow file named while it runs\n${r.stdout}`);
    const table = lines.indexOf('⏱ slowest test files (3 finished):');
    assert.ok(table >= 0, r.stdout);
    assert.match(lines[table + 1]!, /slow\.test\.mjs/, 'slowest first');
    // The table comes before the runner's own summary, which is the spec reporter's.
    const summary = lines.findIndex((l) => /^ℹ tests 3$/.test(l));
    assert.ok(summary > table, r.stdout);
    assert.deepEqual(lines.slice(summary, summary + 8).map((l) => l.replace(/ [\d.]+$/, '')), ['ℹ tests', 'ℹ suites', 'ℹ pass', 'ℹ fail', 'ℹ cancelled', 'ℹ skipped', 'ℹ todo', 'ℹ duration_ms']);
    assert.ok(!lines.slice(summary).some((l) => l.startsWith('⏱')), 'nothing of this reporter after the summary');
  });

  it('a passing run ends with the spec summary lines themselves', () => {
    const r = spawnSync(process.execPath, ['--test', ...reporterFlags(), join(dir, 'quick.test.mjs')], { encoding: 'utf8', timeout: 60_000, env: childEnv() });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /⏱ +\d+\.\d s  .*quick\.test\.mjs\n/);
    assert.match(r.stdout, /ℹ tests 1\nℹ suites 0\nℹ pass 1\nℹ fail 0\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms [\d.]+\n$/);
  });
});
