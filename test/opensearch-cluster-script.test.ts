/**
 * scripts/opensearch/cluster.mjs decides from /proc whether a pid is one of its OpenSearch nodes (stop,
 * status, and start's check of nodes found running). A CI run once failed with "node-2 exited during
 * start-up" while node-2 was starting: a process reads with an empty cmdline or environ for an instant
 * while it execs, and bin/opensearch execs twice (env -> bash -> java). These fakes need no Java: a
 * launcher named bin/opensearch that execs itself many times and ends as a process naming its config
 * folder on its command line, as the JVM does.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

type ClusterScript = { isOurNode: (pid: number, confDir: string) => boolean };
const script = join(import.meta.dirname, '..', 'scripts', 'opensearch', 'cluster.mjs');
const { isOurNode } = (await import(script as string)) as ClusterScript;

const dir = mkdtempSync(join(tmpdir(), 'veracite-cluster-script-'));
const conf = join(dir, 'node-1', 'config');
mkdirSync(conf, { recursive: true });
mkdirSync(join(dir, 'bin'));
const launcher = join(dir, 'bin', 'opensearch');
// Execs itself EXECS times (each through env, as the real launcher's shebang does), then becomes the
// "JVM": a node process whose argv names the config folder and whose environment no longer does.
writeFileSync(
  launcher,
  `#!/usr/bin/env bash
if [ "\${ROUND:-0}" -lt "\${EXECS:-0}" ]; then ROUND=$((\${ROUND:-0} + 1)) exec "$0" "$@"; fi
exec env -u OPENSEARCH_PATH_CONF "${process.execPath}" -e 'setTimeout(() => {}, 60000)' -- "-Dopensearch.path.conf=$OPENSEARCH_PATH_CONF" org.opensearch.bootstrap.OpenSearch
`,
);
chmodSync(launcher, 0o755);

const children: ChildProcess[] = [];
function startFake(execs: number, confDir = conf): ChildProcess {
  const child = spawn(launcher, [], { env: { ...process.env, OPENSEARCH_PATH_CONF: confDir, EXECS: String(execs) }, stdio: 'ignore' });
  children.push(child);
  return child;
}
const exited = (c: ChildProcess) => new Promise<void>((res) => (c.exitCode !== null || c.signalCode !== null ? res() : c.once('exit', () => res())));

after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('cluster.mjs isOurNode', () => {
  it('holds a node true through every exec of its start-up, and after it becomes the JVM', async () => {
    const child = startFake(300);
    const pid = child.pid!;
    let looks = 0;
    const until = Date.now() + 4000;
    while (Date.now() < until) {
      assert.equal(isOurNode(pid, conf), true, `look ${looks}: the starting node was taken for gone`);
      looks++;
      if (looks % 200 === 0) await new Promise((res) => setImmediate(res));
    }
    assert.ok(looks > 1000, `only ${looks} looks`);
  });

  it("says no to another cluster's node and to a pid that has exited", async () => {
    const other = startFake(0, join(dir, 'elsewhere', 'config'));
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(isOurNode(other.pid!, conf), false);
    other.kill('SIGKILL');
    await exited(other);
    assert.equal(isOurNode(other.pid!, join(dir, 'elsewhere', 'config')), false);
    assert.equal(isOurNode(process.pid, conf), false, 'the test runner itself is not a node');
  });
});
