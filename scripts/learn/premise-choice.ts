/**
 * How many best sentences of a cited page an engine reads as its evidence (ProfileFile.scoring.evidenceK),
 * chosen on domains its cross-encoder was not trained on, never on the sample audit or the citation sets:
 *
 * - WiCE dev claims that scripts/model/build_data.py held out of the verifier's training (training-split.ts);
 * - SciFact train claims citing their abstracts, the selection split (scifact-as-citations.ts), never trained on.
 *
 * Each citation's premise is the audit's (audit-premises.ts): the evidence scorer's k best sentences, joined in
 * score order. The profile's NLI model reads every premise once per k; its raw P(entailment) is ranked,
 * supported against not supported (and, on WiCE, against not or partially supported), by ROC AUC. Raw, not
 * calibrated, as mix-weight.ts: the chosen k is then calibrated (calibrate-engine.ts --evidence-k).
 * Rule: the k whose worst domain ranks best; a tie keeps the smaller k (fewer words for the model to read).
 *
 *   node --import tsx scripts/learn/scifact-as-citations.ts --out tmp/scifact-selection-citations.jsonl
 *   node --import tsx scripts/learn/premise-choice.ts --out eval-results/premise-choice-verifier.json
 *   VERACITE_ENGINE_DIR=<a candidate profile> node --import tsx scripts/learn/premise-choice.ts ...   (a candidate engine)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { Veracite } from '../../src/app/veracite.js';
import { DEFAULT_SCORING } from '../../src/audit/score-document.js';
import { readWiceClaims, type WiceClaim } from '../../src/eval/run-citation-detection.js';
import { rocAuc } from '../../src/learn/detection-metrics.js';
import { auditPremises } from './audit-premises.js';
import { wiceHeldOut } from './training-split.js';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'verifier' },
    wice: { type: 'string', default: '../shared/data/wice/claim_dev.jsonl' },
    scifact: { type: 'string', default: 'tmp/scifact-selection-citations.jsonl' },
    k: { type: 'string', default: '1,2,3,4,5,6,8' },
    out: { type: 'string', default: 'eval-results/premise-choice-verifier.json' },
  },
});
const ks = values.k!.split(',').map(Number);
if (ks.some((k) => !(Number.isInteger(k) && k >= 1 && k <= 10))) throw new Error(`--k ${values.k}: whole numbers from 1 to 10`);

const vc = await Veracite.open({ index: { dir: null }, models: { cache: 'tmp/embcache-premise', profile: values.profile! } });
const scorer = (await vc.models.engine()).scorer;
const nli = await vc.models.engineEntailment();

async function domain(name: string, claims: WiceClaim[]) {
  const t0 = performance.now();
  const supported = claims.map((c) => c.label === 'supported');
  const notOnly = claims.map((c) => c.label !== 'partially_supported');
  const hasPartial = claims.some((c) => c.label === 'partially_supported');
  const byK = [];
  for (const k of ks) {
    const pairs = await auditPremises(scorer, claims, { ...DEFAULT_SCORING, evidenceK: k });
    const s = (await nli.predict(pairs)).map((p) => p.entailment);
    const vsNot = rocAuc(s.filter((_, i) => notOnly[i]), supported.filter((_, i) => notOnly[i]));
    byK.push({ k, aucSupportedVsNot: vsNot, ...(hasPartial ? { aucSupportedVsNotOrPartial: rocAuc(s, supported) } : {}), premiseWords: pairs.reduce((n, p) => n + p.premise.split(/\s+/).length, 0) / pairs.length });
    const r = byK.at(-1)!;
    process.stderr.write(`${name}, k ${k}: AUC supported vs not ${vsNot.toFixed(3)}${r.aucSupportedVsNotOrPartial !== undefined ? `, vs not or partial ${r.aucSupportedVsNotOrPartial.toFixed(3)}` : ''}, ${r.premiseWords.toFixed(0)} words (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  const counts = Object.fromEntries(['supported', 'partially_supported', 'not_supported'].map((l) => [l, claims.filter((c) => c.label === l).length]));
  return { name, n: claims.length, counts, byK };
}

const wice = (await readWiceClaims(values.wice!)).filter((c) => wiceHeldOut(c.claim));
const scifact = await readWiceClaims(values.scifact!);
const domains = [await domain("WiCE dev, held out of the verifier's training", wice), await domain('SciFact selection citations', scifact)];
const worst = (i: number) => Math.min(...domains.map((d) => d.byK[i]!.aucSupportedVsNot));
const order = ks.map((k, i) => ({ k, i })).sort((a, b) => worst(b.i) - worst(a.i) || a.k - b.k);
const chosen = order[0]!.k;
process.stderr.write(`chosen (best worst-domain AUC): evidence k ${chosen} (package default ${DEFAULT_SCORING.evidenceK})\n`);
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, JSON.stringify({ profile: values.profile, nli: nli.info, scorer: scorer.info, premise: "audit: the scorer's k best sentences joined in score order (audit-premises.ts); hypothesis: the claim", rule: 'the k whose worst domain AUC (supported vs not) is highest; ties: the smaller k', chosen, domains }, null, 1) + '\n');
process.stderr.write(`wrote ${values.out}\n`);
await vc.close();
