/** The package version, recorded in provenance. */
import { readFileSync } from 'node:fs';

export const VERACITE_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();
