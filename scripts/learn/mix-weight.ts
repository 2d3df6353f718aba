/**
 * The weight of a mixed engine (models/mix/mixed-entailment.ts: the cross-encoder's three probabilities
 * averaged with the lite heads'), chosen on domains the cross-encoder was not trained on, never on the sample
 * audit or the citation sets:
 *
 * - WiCE dev claims that scripts/model/build_data.py held out of the verifier's training (training-split.ts);
 * - SciFact train claims citing their abstracts, the selection split (scifact-as-citations.ts), never trained on.
 *
 * Each citation is read as the audit reads a cited page (audit/support.ts judgeSupport): the lite evidence
 * scorer picks the best sentences, their joined text is the premise, the claim the hypothesis. Both models read
 * every pair once; each weight's raw P(entailment) is then ranked, supported against not supported (and, on WiCE,
 * against not or partially supported), by ROC AUC. Raw, not calibrated: a calibration is fitted per engine
 * (calibrate-engine.ts, minutes each); the chosen weight's calibrated figures are in its profile.
 *
 *   node --import tsx scripts/learn/scifact-as-citations.ts --out tmp/scifact-selection-citations.jsonl
 *   node --import tsx scripts/learn/mix-weight.ts --out eval-results/mix-weight.json
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { Veracite } from '../../src/app/veracite.js';
import { readWiceClaims, type WiceClaim } from '../../src/eval/run-citation-detection.js';
import { rocAuc } from '../../src/learn/detection-metrics.js';
import { mixProbs } from '../../src/models/mix/mixed-entailment.js';
import { auditPremises } from './audit-premises.js';
import { wiceHeldOut } from './training-split.js';

const { values } = parseArgs({
  options: {
    wice: { type: 'string', default: '../shared/data/wice/claim_dev.jsonl' },
    scifact: { type: 'string', default: 'tmp/scifact-selection-citations.jsonl' },
    weights: { type: 'string', default: '0,0.25,0.5,0.75,1' },
    out: { type: 'string', default: 'eval-results/mix-weight.json' },
  },
});
if (process.env.VERACITE_ENGINE_DIR) throw new Error('unset VERACITE_ENGINE_DIR: the weight is chosen for the shipped verifier (models/engine) against the lite heads');
const weights = values.weights!.split(',').map(Number);
if (weights.some((w) => !(w >= 0 && w <= 1))) throw new Error(`--weights ${values.weights}: numbers between 0 and 1`);

const verifierVc = await Veracite.open({ index: { dir: null }, models: { cache: 'tmp/embcache-mixweight', profile: 'verifier' } });
const liteVc = await Veracite.open({ index: { dir: null }, models: { cache: 'tmp/embcache-mixweight', profile: 'lite' } });
const scorer = (await liteVc.models.engine()).scorer;
const verifier = await verifierVc.models.engineEntailment();
const lite = await liteVc.models.engineEntailment();

async function domain(name: string, claims: WiceClaim[]) {
  const t0 = performance.now();
  const pairs = await auditPremises(scorer, claims);
  const [v, l] = [await verifier.predict(pairs), await lite.predict(pairs)];
  const supported = claims.map((c) => c.label === 'supported');
  const notOnly = claims.map((c) => c.label !== 'partially_supported');
  const byWeight = weights.map((w) => {
    const s = claims.map((_, i) => mixProbs(v[i]!, l[i]!, w).entailment);
    const vsNot = rocAuc(s.filter((_, i) => notOnly[i]), supported.filter((_, i) => notOnly[i]));
    const hasPartial = claims.some((c) => c.label === 'partially_supported');
    return { weight: w, aucSupportedVsNot: vsNot, ...(hasPartial ? { aucSupportedVsNotOrPartial: rocAuc(s, supported) } : {}) };
  });
  const counts = Object.fromEntries(['supported', 'partially_supported', 'not_supported'].map((k) => [k, claims.filter((c) => c.label === k).length]));
  process.stderr.write(`${name}: ${claims.length} citations in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  for (const r of byWeight) process.stderr.write(`  verifier weight ${r.weight}: AUC supported vs not ${r.aucSupportedVsNot.toFixed(3)}${r.aucSupportedVsNotOrPartial !== undefined ? `, vs not or partial ${r.aucSupportedVsNotOrPartial.toFixed(3)}` : ''}\n`);
  return { name, n: claims.length, counts, byWeight };
}

const wice = (await readWiceClaims(values.wice!)).filter((c) => wiceHeldOut(c.claim));
const scifact = await readWiceClaims(values.scifact!);
const domains = [await domain('WiCE dev, held out of the verifier\'s training', wice), await domain('SciFact selection citations', scifact)];
// The weight whose worst domain ranks best (supported vs not): one domain may not carry the choice.
const best = weights.reduce((a, w, k) => (Math.min(...domains.map((d) => d.byWeight[k]!.aucSupportedVsNot)) > Math.min(...domains.map((d) => d.byWeight[weights.indexOf(a)]!.aucSupportedVsNot)) ? w : a), weights[0]!);
process.stderr.write(`chosen (best worst-domain AUC): verifier weight ${best}\n`);
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, JSON.stringify({ verifier: verifier.info, lite: lite.info, scorer: scorer.info, premise: 'audit: the scorer\'s best sentences (DEFAULT_SCORING) joined; hypothesis: the claim', rule: 'the weight whose worst domain AUC (supported vs not) is highest', chosen: best, domains }, null, 1) + '\n');
process.stderr.write(`wrote ${values.out}\n`);
await verifierVc.close();
await liteVc.close();
