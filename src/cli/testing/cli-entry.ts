/**
 * How a test starts `veracite` in its own process: the compiled CLI (`dist/cli/entry.js`, what
 * bin/veracite.js runs for a user) when it is at least as new as every source file it is built from,
 * else the sources through tsx. A tsx start costs about 1.1 s more CPU than the compiled one on this
 * 2-core machine (1.8 s against 0.75 s user time for one `search`), and the suite starts a few hundred
 * CLI processes. CI builds dist/ in `npm install` (the prepare script) from the same sources, so there it
 * always runs the compiled copy; after an edit without a rebuild, the tests read the edited sources.
 * VERACITE_TEST_CLI=tsx forces the sources.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
/** What tsconfig.build.json leaves out of dist/: these never make it stale. */
const NOT_BUILT = /(\.test\.ts$|\/testing\/|\/models\/onnx\/tiny-[^/]*\.ts$|\/models\/onnx\/test-fixtures\.ts$|\.d\.ts$)/;

/** Whether every built source has its .js in dist/ with an mtime not older than the source's. */
export function distIsCurrent(): boolean {
  const stack = [SRC];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        stack.push(path);
        continue;
      }
      if (!entry.name.endsWith('.ts') || NOT_BUILT.test(path)) continue;
      const built = join(DIST, relative(SRC, path)).replace(/\.ts$/, '.js');
      let builtAt: number;
      try {
        builtAt = statSync(built).mtimeMs;
      } catch {
        return false;
      }
      if (builtAt < statSync(path).mtimeMs) return false;
    }
  }
  return true;
}

let chosen: string[] | undefined;

/** The node arguments before the CLI's own: `[dist/cli/entry.js]` or `[--import, tsx, src/cli/entry.ts]`, absolute paths. */
export function cliEntryArgs(): string[] {
  chosen ??= process.env.VERACITE_TEST_CLI !== 'tsx' && distIsCurrent() ? [join(DIST, 'cli', 'entry.js')] : ['--import', 'tsx', join(SRC, 'cli', 'entry.ts')];
  return [...chosen];
}
