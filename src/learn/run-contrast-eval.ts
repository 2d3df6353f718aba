/**
 * Runs the contrast and shuffled checks (src/eval/run-contrast.ts) on SciFact dev with the verifier as
 * `veracite verify` configures it, and saves eval-results/contrast.json. Stand-in for `veracite eval
 * contrast` until the CLI wires runContrastEval:
 *
 *   node --import tsx src/learn/run-contrast-eval.ts --index tmp/scifact --claims ../shared/data/scifact/claims_dev.jsonl
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { loadVerifierModels } from '../models/registry.js';
import { Retriever } from '../retrieve/retriever.js';
import { LanceStore } from '../store/lancedb-store.js';
import { runContrastEval, type ContrastClaim } from '../eval/run-contrast.js';
import { Verifier } from '../verify/verifier.js';

const { values } = parseArgs({ options: { index: { type: 'string', default: 'tmp/scifact' }, claims: { type: 'string', default: '../shared/data/scifact/claims_dev.jsonl' }, out: { type: 'string', default: 'eval-results/contrast.json' } } });
const claims = (await readFile(values.claims!, 'utf8'))
  .split('\n')
  .filter((l) => l.trim())
  .map((l, i) => {
    try {
      const c = JSON.parse(l) as ContrastClaim;
      c.evidence ??= {};
      return c;
    } catch (e) {
      throw new Error(`${values.claims}:${i + 1}: ${(e as Error).message}`);
    }
  });
const store = await LanceStore.open(values.index!, { create: false });
const models = await loadVerifierModels({});
const verifier = new Verifier(store, new Retriever(store, undefined, { mode: 'bm25' }), models);
const t0 = performance.now();
const result = await runContrastEval(verifier, claims, async (id) => (await store.getDocuments([id]))[0]?.sentences, {
  onProgress: (d, t) => {
    if (d % 100 === 0 || d === t) process.stderr.write(`contrast: ${d}/${t} (${(d / ((performance.now() - t0) / 1000)).toFixed(1)}/s)\n`);
  },
});
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, JSON.stringify({ ...result, claims: values.claims, provenance: await verifier.provenance() }, null, 2) + '\n');
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(`contrast consistency ${pct(result.consistency)} over ${result.pairs} (original, twin) pairs of SciFact dev (original SUPPORTS ${pct(result.originalSupported)}, twin SUPPORTS ${pct(result.twinSupported)}, twin REFUTES ${pct(result.twinRefuted)})`);
for (const [rule, r] of Object.entries(result.byRule)) console.log(`  ${rule.padEnd(9)} ${r.pairs} pairs, consistency ${pct(r.consistency)}, twin REFUTES ${pct(r.twinRefuted)}`);
console.log(`shuffled: ${pct(result.shuffled.notEnoughInfo)} NOT ENOUGH INFO over ${result.shuffled.pairs} (claim, another claim's abstract) pairs ${JSON.stringify(result.shuffled.labels)}`);
console.log(result.note);
console.log(`saved ${values.out}`);
await store.close();
