import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * A file's path as a report shows it (issue 31): relative to veracite's package when the file lies inside
 * it ("models/calibration/wice-dev.json"), else its name alone. Never a path of this machine: a report is
 * shared, and the reader's machine has other folders.
 */
export function reportPath(path: string): string {
  const abs = resolve(path);
  const rel = relative(packageRoot(), abs);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  return basename(path);
}
