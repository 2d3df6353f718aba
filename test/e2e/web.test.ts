/**
 * End-to-end: Debian's Chromium against `veracite serve` with the real default pipeline (USE embedder,
 * trained heads, the citation audit's trained scorer) on an index built from the shipped SciFact sample.
 * Skipped, with the reason, when /usr/bin/chromium is absent. Leaves test-artifacts/audit-page.png.
 */
import { Veracite } from '../../src/app/veracite.js';
import { loadUse } from '../../src/models/registry.js';
import { startServer } from '../../src/server/start.js';
import { defineWebTests } from './web-flows.js';

defineWebTests({
  // Loading the encoder once up front keeps that out of the first test's time.
  prepare: async () => void (await loadUse()),
  // The pipeline exactly as `veracite serve --index DIR` builds it: the settings' own defaults.
  start: async (index, dataDir) => startServer({ dataDir, port: 0 }, await Veracite.open({ index: { dir: index } })),
});
