/**
 * The one decision's thresholds (verify/decision.ts: supported / partly / not supported, and the tag
 * threshold) re-fitted on the shipped engine's own probabilities of support, by cross-validation (issue 43):
 *
 * - rows: WiCE dev citations as the audit reads them with the shipped engine (scripts/learn/citation-band-rows.ts
 *   run on the default engine: P(supports), page similarity, contradicted, decisive finding, label, article);
 * - each row's probability of support made exactly as the audit makes it, through the engine's audit
 *   calibration (models/engine/audit-calibration.json: its support signal and probability curve);
 * - bands: src/learn/bands.ts fitThresholds (the cost of each confusion, review at a fixed cost), judged out of
 *   fold, 5 folds by article x 5 fold seeds, each fold banded by thresholds fitted without its articles;
 * - the tag threshold: the highest tagBelow (at most the not-supported threshold: a needs-review band never gets
 *   a tag) whose in-fold precision is >= TAG_PRECISION_MIN (a tag is right when the citation is not labelled
 *   supported), with at least MIN_TAGS tags; its precision measured out of fold the same way. None reaches it:
 *   tagBelow 0 (tags only for decisive findings).
 *
 * Rows may pool domains (`--rows a.json,b.json`, CV still by article); `--held-out-only` keeps the rows whose
 * claims the verifier was not trained on (citation-band-rows.ts marks them). The thresholds fitted on all rows are
 * written into models/engine/veracite-profile.json (`bands`) only if, out of fold, they cost no more than the
 * package's defaults (BAND_THRESHOLDS) on every domain; the figures go to --out either way.
 * Never fitted on data/samples/audit, the citation sets or test/cases.
 *
 * The verifier (stop 51): WiCE dev rows and SciFact claims citing abstracts (scifact-as-citations.ts, the
 * selection split), held out of its training:
 *   node --import tsx scripts/learn/citation-band-rows.ts --profile verifier --out eval-results/engine-band-rows-dev-verifier.json
 *   node --import tsx scripts/learn/scifact-as-citations.ts --out tmp/scifact-selection-citations.jsonl
 *   node --import tsx scripts/learn/citation-band-rows.ts --profile verifier --trained-on none --data tmp/scifact-selection-citations.jsonl --out eval-results/engine-band-rows-scifact-selection-verifier.json --cache tmp/embcache-scisel
 *   node --import tsx scripts/learn/engine-bands.ts --rows eval-results/engine-band-rows-dev-verifier.json,eval-results/engine-band-rows-scifact-selection-verifier.json --held-out-only --out eval-results/engine-bands-verifier.json
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCalibration, probabilityOf } from '../../src/audit/calibration.js';
import { supportSignal } from '../../src/audit/support-signal.js';
import { bandCost, evaluateBands, type WiceLabel3 } from '../../src/learn/bands.js';
import { bundledProfileDir } from '../../src/models/hub/bundled.js';
import { AUDIT_CALIBRATION_FILE, PROFILE_FILE, type ProfileFile } from '../../src/models/hub/profile.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';
import { Rng, subSeed } from '../../src/util/rng.js';
import { BAND_THRESHOLDS, decidePair, TAG_PRECISION_MIN, type DecisionThresholds } from '../../src/verify/decision.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: 'eval-results/engine-band-rows-dev.json' }, profile: { type: 'string', default: bundledProfileDir() }, out: { type: 'string', default: 'eval-results/engine-bands.json' }, 'no-write': { type: 'boolean', default: false }, 'held-out-only': { type: 'boolean', default: false } } });

const MIN_TAGS = 5;
const FOLDS = 5;
const SEEDS = [13, 14, 15, 16, 17];

interface Row { group: string; heldOutOfTraining?: boolean; label: WiceLabel3; probability: number; similarity: number; contradicted: boolean; stated?: boolean }
interface Item { group: string; /** Which file of --rows (domain). */ domain: number; label: WiceLabel3; p: number; stated: boolean; conflict: boolean }

// --rows a.json,b.json: several domains pooled (WiCE's Wikipedia citations, SciFact claims citing papers); an
// article of one file is never confused with one of another.
const files = await Promise.all(values.rows!.split(',').map(async (f) => ({ f, ...(JSON.parse(await readFile(f, 'utf8')) as { data: string; scorer?: unknown; rows: Row[] }) })));
const file = { data: files.map((x) => x.data).join(','), rows: files.flatMap((x, k) => x.rows.map((r) => ({ ...r, domain: k, group: files.length > 1 ? `${k}:${r.group}` : r.group }))) };
const cal = await loadCalibration(join(values.profile!, AUDIT_CALIBRATION_FILE));
if (!cal.probability) throw new Error(`${cal.path}: no probability curve`);
// --held-out-only: only the WiCE claims the verifier was not trained on (citation-band-rows.ts marks them): on the
// claims it saw, its probabilities are surer than on new text, and thresholds fitted there sit too high.
const rowsUsed = values['held-out-only'] ? file.rows.filter((r) => r.heldOutOfTraining) : file.rows;
if (values['held-out-only'] && !rowsUsed.length) throw new Error(`${values.rows}: no row is marked heldOutOfTraining (made by an older citation-band-rows.ts?)`);
const itemOf = (r: Row & { domain: number }): Item => {
  const signal = cal.supportSignal ? supportSignal(r.probability, r.similarity, cal.supportSignal) : r.probability;
  const p = probabilityOf(cal.probability!, signal);
  // As the audit: a conflict stated in words caps the probability at the NLI model's own P(supports).
  return { group: r.group, domain: r.domain, label: r.label, p: r.stated ? Math.min(p, r.probability) : p, stated: !!r.stated, conflict: r.contradicted && !r.stated };
};
const items: Item[] = rowsUsed.map(itemOf);

const decide = (it: Item, t: DecisionThresholds) =>
  decidePair({ probability: it.p, ...(it.stated ? { decisiveFinding: { kind: 'stated', message: 'stated conflict' } } : {}), modelContradiction: it.conflict }, t);

/**
 * fitThresholds of src/learn/bands.ts (the same cost, grid and tie rule: the first triple of least cost in
 * (a, b, c) order), by prefix sums over the probabilities sorted: O(1) per candidate triple instead of a pass over
 * the rows (the generic one took minutes per fit on the loaded machine).
 */
function fitThresholds(items: readonly { p: number; contradicted: boolean; label: WiceLabel3 }[], grid = 40): { supportedFrom: number; partlyFrom: number; notSupportedBelow: number } {
  const free = items.filter((i) => !i.contradicted).sort((x, y) => x.p - y.p);
  const sorted = items.map((i) => i.p).sort((x, y) => x - y);
  const cuts = [...new Set(Array.from({ length: grid + 1 }, (_, k) => sorted[Math.min(sorted.length - 1, Math.floor((k / grid) * (sorted.length - 1)))]!))];
  cuts.push(1.0000001);
  const bandsOrder = ['not-supported', 'needs-review', 'partly-supported', 'supported'] as const;
  // prefix[k][j]: summed cost of the first j free rows (by p) shown band k.
  const prefix = bandsOrder.map((band) => {
    const out = [0];
    for (const i of free) out.push(out[out.length - 1]! + bandCost(i.label, band));
    return out;
  });
  const below = (x: number) => {
    let lo = 0, hi = free.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (free[m]!.p < x) lo = m + 1;
      else hi = m;
    }
    return lo;
  };
  const at = cuts.map(below);
  const seg = (k: number, from: number, to: number) => prefix[k]![to]! - prefix[k]![from]!;
  let best: { cost: number; t: { supportedFrom: number; partlyFrom: number; notSupportedBelow: number } } | undefined;
  for (let a = 0; a < cuts.length; a++)
    for (let b = a; b < cuts.length; b++)
      for (let c = b; c < cuts.length; c++) {
        const cost = seg(0, 0, at[a]!) + seg(1, at[a]!, at[b]!) + seg(2, at[b]!, at[c]!) + seg(3, at[c]!, free.length);
        if (!best || cost < best.cost - 1e-12) best = { cost, t: { notSupportedBelow: cuts[a]!, partlyFrom: cuts[b]!, supportedFrom: cuts[c]! } };
      }
  return best!.t;
}

function fitAll(train: readonly Item[]): DecisionThresholds {
  const b = fitThresholds(train.map((i) => ({ p: i.p, contradicted: i.stated, label: i.label })));
  // Tags: the highest threshold within the not-supported band whose tags are right often enough.
  const cuts = [...new Set(train.map((i) => i.p).filter((p) => p <= b.notSupportedBelow))].sort((x, y) => y - x);
  let tagBelow = 0;
  for (const c of [b.notSupportedBelow, ...cuts]) {
    const tagged = train.filter((i) => !i.stated && i.p < c);
    if (tagged.length < MIN_TAGS) continue;
    if (tagged.filter((i) => i.label !== 'supported').length / tagged.length >= TAG_PRECISION_MIN) {
      tagBelow = c;
      break;
    }
  }
  return { supportedFrom: b.supportedFrom, partlyFrom: b.partlyFrom, notSupportedBelow: b.notSupportedBelow, tagBelow };
}

const groups = [...new Set(items.map((i) => i.group))].sort();
const perSeed = SEEDS.map((seed) => {
  const order = new Rng(subSeed(seed, 'band-folds')).shuffle(groups.slice());
  const fold = new Map(order.map((g, i) => [g, i % FOLDS] as const));
  const bands: { band: ReturnType<typeof decide>['band']; label: WiceLabel3; tag: boolean }[] = new Array(items.length);
  const chosen: DecisionThresholds[] = [];
  for (let k = 0; k < FOLDS; k++) {
    const t = fitAll(items.filter((i) => fold.get(i.group) !== k));
    chosen.push(t);
    items.forEach((it, i) => {
      if (fold.get(it.group) !== k) return;
      const d = decide(it, t);
      bands[i] = { band: d.band, label: it.label, tag: !!d.tag };
    });
  }
  const tags = bands.filter((b) => b.tag);
  // Per domain (file of --rows), out of fold: a pooled fit must not buy one domain at the other's cost.
  const byFile = files.map((x, k) => {
    const mine = bands.filter((_, i) => items[i]!.domain === k);
    return { rows: x.f, evaluation: evaluateBands(mine), tags: mine.filter((b) => b.tag).length, tagsOnSupported: mine.filter((b) => b.tag && b.label === 'supported').length };
  });
  return { seed, byFile, evaluation: evaluateBands(bands), tags: tags.length, tagsRight: tags.filter((b) => b.label !== 'supported').length, tagsStrict: tags.filter((b) => b.label === 'not_supported').length, tagsOnSupported: tags.filter((b) => b.label === 'supported').length, chosen };
});

const all = fitAll(items);
const inSample = items.map((it) => decide(it, all));
const mean = (f: (s: (typeof perSeed)[number]) => number) => perSeed.reduce((a, s) => a + f(s), 0) / perSeed.length;
const summary = {
  bandsRightDecided: mean((s) => s.evaluation.accuracyDecided),
  reviewShare: mean((s) => s.evaluation.reviewShare),
  supportedPrecision: mean((s) => s.evaluation.supportedPrecision),
  notSupportedShownSupported: mean((s) => s.evaluation.notSupportedShownSupported),
  meanCost: mean((s) => s.evaluation.meanCost),
  tags: mean((s) => s.tags),
  tagPrecision: perSeed.reduce((a, s) => a + s.tagsRight, 0) / Math.max(1, perSeed.reduce((a, s) => a + s.tags, 0)),
  tagPrecisionStrict: perSeed.reduce((a, s) => a + s.tagsStrict, 0) / Math.max(1, perSeed.reduce((a, s) => a + s.tags, 0)),
};
const r3 = (x: number) => +x.toFixed(3);
// The package's default thresholds (fitted for lite on WiCE) on the same rows, per domain: what fitting buys.
const againstDefaults = files.map((x, k) => {
  const mine = items.filter((it) => it.domain === k);
  const ds = mine.map((it) => ({ d: decide(it, BAND_THRESHOLDS), label: it.label }));
  const oof = perSeed.map((s) => s.byFile[k]!);
  const m = (f: (e: (typeof oof)[number]) => number) => r3(oof.reduce((a, e) => a + f(e), 0) / oof.length);
  return {
    rows: x.f,
    n: mine.length,
    fittedOutOfFold: { bandsRightDecided: m((e) => e.evaluation.accuracyDecided), reviewShare: m((e) => e.evaluation.reviewShare), notSupportedShownSupported: m((e) => e.evaluation.notSupportedShownSupported), tags: m((e) => e.tags), tagsOnSupported: m((e) => e.tagsOnSupported), meanCost: m((e) => e.evaluation.meanCost) },
    defaults: (() => {
      const e = evaluateBands(ds.map((y) => ({ band: y.d.band, label: y.label })));
      return { bandsRightDecided: r3(e.accuracyDecided), reviewShare: r3(e.reviewShare), notSupportedShownSupported: e.notSupportedShownSupported, tags: ds.filter((y) => y.d.tag).length, tagsOnSupported: ds.filter((y) => y.d.tag && y.label === 'supported').length, meanCost: r3(e.meanCost) };
    })(),
  };
});
const fitted = { supportedFrom: r3(all.supportedFrom), partlyFrom: r3(all.partlyFrom), notSupportedBelow: r3(all.notSupportedBelow), tagBelow: r3(all.tagBelow) };
console.log(`${items.length} citations of ${file.data} (${groups.length} articles), probabilities through ${cal.path}`);
console.log(`out of fold (${FOLDS} folds by article x seeds ${SEEDS.join(',')}): decided bands right ${(summary.bandsRightDecided * 100).toFixed(1)}%, needs review ${(summary.reviewShare * 100).toFixed(1)}%, supported badge precision ${(summary.supportedPrecision * 100).toFixed(1)}%, not_supported shown supported ${summary.notSupportedShownSupported.toFixed(1)}, tags ${summary.tags.toFixed(1)} at precision ${summary.tagPrecision.toFixed(3)} (strict ${summary.tagPrecisionStrict.toFixed(3)})`);
console.log(`fitted on all: ${JSON.stringify(fitted)}; in sample tags ${inSample.filter((d) => d.tag).length}`);
for (const d of againstDefaults) console.log(`  ${d.rows} (${d.n}): fitted, out of fold ${JSON.stringify(d.fittedOutOfFold)}\n    defaults ${JSON.stringify(d.defaults)}`);
// Written only if the fitted thresholds cost no more, out of fold, than the defaults on every domain: bands
// that fit Wikipedia's web pages and fail on papers (or the other way round) are not worth shipping.
const keep = againstDefaults.every((d) => d.fittedOutOfFold.meanCost <= d.defaults.meanCost);
if (!keep) console.log(`the fitted thresholds cost more out of fold than the defaults (${JSON.stringify(BAND_THRESHOLDS)}) on ${againstDefaults.filter((d) => d.fittedOutOfFold.meanCost > d.defaults.meanCost).map((d) => d.rows).join(', ')}: not written`);
await writeFile(values.out!, JSON.stringify({ data: file.data, rows: values.rows, heldOutOnly: values['held-out-only'], calibration: cal.path, n: items.length, articles: groups.length, folds: FOLDS, seeds: SEEDS, tagPrecisionMin: TAG_PRECISION_MIN, minTags: MIN_TAGS, outOfFold: summary, againstDefaults, perSeed, fittedOnAll: fitted, keep }, null, 1) + '\n');
console.log(`wrote ${values.out}`);
if (!values['no-write'] && keep) {
  const path = join(values.profile!, PROFILE_FILE);
  const profile = JSON.parse(await readFile(path, 'utf8')) as ProfileFile;
  profile.bands = { ...fitted, fittedBy: `node --import tsx scripts/learn/engine-bands.ts --rows ${values.rows}${values['held-out-only'] ? ' --held-out-only' : ''} (${items.length} citations of ${file.data}, ${FOLDS}-fold CV by article; ${values.out})` };
  await writeFileAtomic(path, JSON.stringify(profile, null, 2) + '\n');
  console.log(`wrote bands into ${path}`);
}
