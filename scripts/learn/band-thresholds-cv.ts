/**
 * Should the band thresholds (verify/decision.ts BAND_THRESHOLDS, fitted on WiCE dev alone) move for the shipped
 * sample? Chosen by cross-validation, not on the sample (issue 36): the rows of WiCE dev (349 citations, P(supports)
 * and page similarity: eval-results/tag-precision-rows-dev.json, from citation-band-rows.ts) and of the three
 * SciFact-based articles (the shipped sample's 22 and the citation set's 33, audited here as `veracite audit
 * --sources` audits them), 5 folds by article, 5 fold seeds: each citation banded by a support signal, a
 * probability curve and thresholds fitted without its article (src/learn/bands.ts), then read as the one decision
 * reads it (a decisive finding: not supported; the entailment model's contradiction without one: needs review).
 *
 * Two ways to weigh the two kinds of source in the fit: every citation alike ("rows"), or the 55 abstract
 * citations given the weight of WiCE's 349 ("balanced"); the support signal's weights fitted on the training
 * rows of WiCE only (as shipped). Reports held-out bands right per article set and the thresholds each fold chose.
 *
 *   node --import tsx scripts/learn/band-thresholds-cv.ts --out eval-results/band-thresholds-cv.json
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Veracite } from '../../src/app/veracite.js';
import { loadArticleInput } from '../../src/audit/article-input.js';
import { bandCost, probabilityModel, type BandRow, type WiceLabel3 } from '../../src/learn/bands.js';
import { BAND_THRESHOLDS, type DecisionBand } from '../../src/verify/decision.js';
import { Rng, subSeed } from '../../src/util/rng.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: 'eval-results/tag-precision-rows-dev.json' }, out: { type: 'string', default: 'eval-results/band-thresholds-cv.json' } } });

interface Row extends BandRow {
  domain: 'wice' | 'abstracts';
  /** The entailment model's contradiction without a finding (needs review unless banded not supported). */
  conflict: boolean;
}
type T = { supportedFrom: number; partlyFrom: number; notSupportedBelow: number };

const ARTICLES = [
  { article: 'data/samples/audit/Breast_cancer_risk_factors.txt', sources: 'data/samples/audit/sources', labels: 'data/samples/audit/labels.jsonl' },
  { article: 'data/samples/citation-set/Multidrug-resistant_tuberculosis.txt', sources: 'data/samples/citation-set/sources', labels: 'data/samples/citation-set/Multidrug-resistant_tuberculosis.labels.jsonl' },
  { article: 'data/samples/citation-set/Malaria_prophylaxis.txt', sources: 'data/samples/citation-set/sources', labels: 'data/samples/citation-set/Malaria_prophylaxis.labels.jsonl' },
];

const wice = (JSON.parse(await readFile(values.rows!, 'utf8')) as { rows: (BandRow & { stated?: boolean })[] }).rows;
const rows: Row[] = wice.map((r) => ({ probability: r.probability, similarity: r.similarity, contradicted: r.contradicted, label: r.label, group: r.group, domain: 'wice', conflict: false }));
for (const a of ARTICLES) {
  const vc = await Veracite.open({ index: { dir: null }, sources: { folder: a.sources } });
  const report = await vc.audit(await loadArticleInput(a.article));
  await vc.close();
  const labels = (await readFile(a.labels, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { citation: number; label: WiceLabel3 });
  for (const l of labels) {
    const v = report.citations[l.citation - 1]?.verification;
    if (!v || v.support === undefined || v.similarity === undefined) throw new Error(`${a.article} #${l.citation}: no probability of support or similarity (is the support calibration loaded?)`);
    const decisive = !!v.findings?.some((f) => f.decisive) && !!v.contradicted;
    rows.push({ probability: v.support, similarity: v.similarity, contradicted: decisive, label: l.label, group: report.article.title, domain: 'abstracts', conflict: !!v.contradicted && !decisive });
  }
}

const bandOf = (p: number, stated: boolean, t: T): DecisionBand => (stated ? 'not-supported' : p >= t.supportedFrom ? 'supported' : p >= t.partlyFrom ? 'partly-supported' : p >= t.notSupportedBelow ? 'needs-review' : 'not-supported');
/** learn/bands.ts fitThresholds with a weight per item (the same grid: quantiles of the training probabilities). */
function fitWeighted(items: readonly { p: number; stated: boolean; label: WiceLabel3; w: number }[], grid = 40): T {
  const sorted = items.map((i) => i.p).sort((a, b) => a - b);
  const cuts = [...new Set(Array.from({ length: grid + 1 }, (_, k) => sorted[Math.min(sorted.length - 1, Math.floor((k / grid) * (sorted.length - 1)))]!)), 1.0000001];
  let best: { cost: number; t: T } | undefined;
  for (let a = 0; a < cuts.length; a++)
    for (let b = a; b < cuts.length; b++)
      for (let c = b; c < cuts.length; c++) {
        const t = { notSupportedBelow: cuts[a]!, partlyFrom: cuts[b]!, supportedFrom: cuts[c]! };
        let cost = 0;
        for (const i of items) cost += i.w * bandCost(i.label, bandOf(i.p, i.stated, t));
        if (!best || cost < best.cost - 1e-12) best = { cost, t };
      }
  return best!.t;
}

const WANT: Record<WiceLabel3, DecisionBand> = { supported: 'supported', partially_supported: 'partly-supported', not_supported: 'not-supported' };
const SEEDS = [13, 14, 15, 16, 17];
const FOLDS = 5;
const nWice = rows.filter((r) => r.domain === 'wice').length;
const nAbs = rows.length - nWice;
const result: Record<string, unknown> = {};
for (const weighting of ['rows', 'balanced'] as const) {
  const w = (r: Row) => (weighting === 'balanced' && r.domain === 'abstracts' ? nWice / nAbs : 1);
  const groups = [...new Set(rows.map((r) => r.group))].sort();
  const held: DecisionBand[][] = rows.map(() => []);
  const chosen: T[] = [];
  for (const seed of SEEDS) {
    const order = new Rng(subSeed(seed, 'band-folds')).shuffle(groups.slice());
    const fold = new Map(order.map((g, i) => [g, i % FOLDS] as const));
    for (let k = 0; k < FOLDS; k++) {
      const train = rows.filter((r) => fold.get(r.group) !== k);
      const prob = probabilityModel(train.filter((r) => r.domain === 'wice'));
      const t = fitWeighted(train.map((r) => ({ p: prob(r), stated: r.contradicted, label: r.label, w: w(r) })));
      chosen.push({ supportedFrom: +t.supportedFrom.toFixed(3), partlyFrom: +t.partlyFrom.toFixed(3), notSupportedBelow: +t.notSupportedBelow.toFixed(3) });
      rows.forEach((r, i) => {
        if (fold.get(r.group) !== k) return;
        const b = bandOf(prob(r), r.contradicted, t);
        held[i]!.push(r.conflict && b !== 'not-supported' ? 'needs-review' : b);
      });
    }
  }
  const per: Record<string, { citations: number; bandsRight: number; notSupportedBandedSupported: number; meanCost: number }> = {};
  rows.forEach((r, i) => {
    const key = r.domain === 'wice' ? 'WiCE dev' : r.group;
    const e = (per[key] ??= { citations: 0, bandsRight: 0, notSupportedBandedSupported: 0, meanCost: 0 });
    e.citations++;
    for (const b of held[i]!) {
      e.bandsRight += (b === WANT[r.label] ? 1 : 0) / SEEDS.length;
      e.notSupportedBandedSupported += (r.label === 'not_supported' && b === 'supported' ? 1 : 0) / SEEDS.length;
      e.meanCost += bandCost(r.label, b) / SEEDS.length;
    }
  });
  for (const e of Object.values(per)) {
    e.meanCost = +(e.meanCost / e.citations).toFixed(4);
    e.bandsRight = +e.bandsRight.toFixed(1);
    e.notSupportedBandedSupported = +e.notSupportedBandedSupported.toFixed(1);
  }
  const sf = chosen.map((t) => t.supportedFrom).sort((a, b) => a - b);
  result[weighting] = { heldOut: per, supportedFromChosen: { min: sf[0], median: sf[Math.floor(sf.length / 2)], max: sf.at(-1) }, thresholdsChosen: chosen };
  console.log(`weighting ${weighting}: supportedFrom chosen ${sf[0]}-${sf.at(-1)} (median ${sf[Math.floor(sf.length / 2)]})`);
  for (const [k, e] of Object.entries(per)) console.log(`  ${k}: bands right ${e.bandsRight}/${e.citations} held out, not supported banded supported ${e.notSupportedBandedSupported}, mean cost ${e.meanCost}`);
}
await writeFile(
  values.out!,
  JSON.stringify({ command: `node --import tsx scripts/learn/band-thresholds-cv.ts --rows ${values.rows}`, shipped: BAND_THRESHOLDS, folds: FOLDS, seeds: SEEDS, rows: { wice: nWice, abstracts: nAbs }, articles: ARTICLES.map((a) => join(a.article)), ...result }, null, 1) + '\n',
);
console.log(`wrote ${values.out}`);
