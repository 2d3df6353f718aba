import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root (folder of veracite's package.json), found by walking up from this module: the same
 * code runs from src/ under tsx and from dist/ once built, at different depths.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'veracite') return dir;
      } catch {
        // an unreadable package.json further down is not ours; keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`veracite package root not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}
