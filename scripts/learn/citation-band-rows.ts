/**
 * WiCE: the inputs of the audit's citation bands, per claim (P(supports), page similarity, contradicted, label,
 * article), as `veracite audit` computes them for a cited page. The slow part (the models); the bands are fitted
 * from these rows by scripts/learn/citation-bands.ts, out of fold by article.
 *
 *   node --import tsx scripts/learn/citation-band-rows.ts --data ../shared/data/wice/claim_dev.jsonl --out eval-results/citation-band-rows-dev.json
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { Veracite } from '../../src/app/veracite.js';
import { supportModel } from '../../src/audit/support.js';
import { readWiceClaims } from '../../src/eval/run-citation-detection.js';
import { supportDetection } from '../../src/eval/support-detection.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/wice/claim_dev.jsonl' }, out: { type: 'string', default: 'eval-results/citation-band-rows-dev.json' }, cache: { type: 'string', default: 'tmp/embcache-wice' } } });
const claims = await readWiceClaims(values.data!);
const vc = await Veracite.open({ index: { dir: null }, models: { cache: values.cache! } });
const loaded = await vc.models.engine();
const support = supportModel(loaded.scorer.info, await vc.models.engineEntailment());
if ('reason' in support) throw new Error(support.reason);
const t0 = performance.now();
const r = await supportDetection(loaded.scorer, support, claims, (d, t) => {
  if (d % 40 === 0 || d === t) process.stderr.write(`band rows: ${d}/${t} (${(d / ((performance.now() - t0) / 1000)).toFixed(2)} claims/s)\n`);
});
const rows = claims.map((c, i) => ({
  id: c.id,
  group: c.title || c.claim,
  label: c.label,
  probability: r.support[i]!,
  similarity: r.similarity[i]!,
  contradicted: !!r.judgements[i]?.contradicted,
}));
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, JSON.stringify({ data: values.data, n: rows.length, scorer: loaded.scorer.info, rows }, null, 1) + '\n');
console.log(`wrote ${values.out} (${rows.length} rows, ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
await vc.close();
