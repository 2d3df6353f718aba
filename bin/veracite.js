#!/usr/bin/env node
// Entry point: runs the compiled CLI (built by `npm install` through the "prepare" script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/entry.js', import.meta.url));
if (!existsSync(compiled)) {
  console.error('veracite: dist/ is missing; run "npm run build" (npm install does it) first.');
  process.exit(1);
}
await import(compiled);
