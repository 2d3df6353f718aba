/**
 * End-to-end: Debian's Chromium against `veracite serve` with the real default pipeline (USE embedder,
 * trained heads, the citation audit's trained scorer) on an index built from the shipped SciFact sample.
 * Skipped, with the reason, when /usr/bin/chromium is absent. Leaves test-artifacts/audit-page.png.
 */
import { Command } from 'commander';
import { addVerifyOptions, openVerifier, type VerifyFlags } from '../../src/cli/pipeline.js';
import { loadVerifierModels } from '../../src/models/registry.js';
import { startServer } from '../../src/server/start.js';
import { defineWebTests } from './web-flows.js';

/** The pipeline exactly as `veracite serve --index DIR` builds it: the CLI's own defaults. */
function defaultFlags(index: string): VerifyFlags {
  const cmd = addVerifyOptions(new Command('serve')).exitOverride();
  cmd.parse(['--index', index], { from: 'user' });
  return cmd.opts<VerifyFlags>();
}

defineWebTests({
  // Loading the models once up front keeps that out of the first test's time.
  prepare: async () => void (await loadVerifierModels()),
  start: async (index, dataDir) => {
    const { store, retriever, verifier } = await openVerifier(defaultFlags(index));
    return startServer({ index, dataDir, port: 0, auditScorer: 'trained' }, { store, retriever, verifier });
  },
});
