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
import { wiceHeldOut } from './training-split.js';
import { wiceSupport } from './wice-support.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/wice/claim_dev.jsonl' }, out: { type: 'string', default: 'eval-results/citation-band-rows-dev.json' }, cache: { type: 'string', default: 'tmp/embcache-wice' }, profile: { type: 'string' }, 'trained-on': { type: 'string', default: 'wice' } } });
if (!['wice', 'none'].includes(values['trained-on']!)) throw new Error(`--trained-on ${values['trained-on']}: wice (the data is WiCE dev, 70% of it in the verifier's training) or none (the verifier never saw it: scifact-as-citations.ts's selection split)`);
const { vc, claims, loaded, r, t0 } = await wiceSupport(values.data!, values.cache!, 'band rows', 40, values.profile);
const rows = claims.map((c, i) => ({
  id: c.id,
  // The rows the verifier has not seen (build_data.py's split), reported apart by engine-bands.ts.
  heldOutOfTraining: values['trained-on'] === 'none' || wiceHeldOut(c.claim),
  group: c.title || c.claim,
  label: c.label,
  probability: r.support[i]!,
  similarity: r.similarity[i]!,
  contradicted: !!r.judgements[i]?.contradicted,
  // A decisive finding (verify/decision.ts: not supported, with a tag) rather than the NLI head's contradiction alone.
  stated: !!r.judgements[i]?.findings?.some((f) => f.decisive) && !!r.judgements[i]?.contradicted,
}));
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, JSON.stringify({ data: values.data, n: rows.length, scorer: loaded.scorer.info, rows }, null, 1) + '\n');
console.log(`wrote ${values.out} (${rows.length} rows, ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
await vc.close();
