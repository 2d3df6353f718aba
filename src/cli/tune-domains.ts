/**
 * `veracite tune-verdict --domains`: reads the labelled domains (learn/verdict/domains.ts) with the shipped
 * models, caches each domain's items (tmp/domains/items-<domain>.json: the engine's readings, reused while
 * the models are the same), then fits the verdict layer leave-one-domain-out (learn/verdict/lodo.ts) and
 * prints and saves the per-domain figures (eval-results/verdict-domains.json) and the needs-review model
 * fitted on every fit domain (models/verdict-review.json). The cache is keyed on the models and the sample,
 * not on the reading code (stated conflicts, findings): after a change there, delete tmp/domains/items-*.json.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Veracite } from '../app/veracite.js';
import type { SettingsInput } from '../app/settings.js';
import { chunkPassages } from '../corpus/passages.js';
import { collectDomainItems, domainCases, type DomainItem, type DomainName } from '../learn/verdict/domains.js';
import { capped, decideItem, FAMILIES, figuresOf, fitReview, leaveOneDomainOut, reviewHeldOut, riskCoverage, type DomainFigures, type RiskCoverage } from '../learn/verdict/lodo.js';
import type { ModelInfo } from '../models/types.js';
import { PROFILE_FILE, writeProfileCalibration } from '../models/hub/profile.js';
import { pRightOf, REVIEW_PATH, type ReviewModel } from '../verify/review.js';
import { LABELS, type Label } from '../verify/types.js';
import { aggregateConfigOf, loadVerdictCalibration, oneSourceRule } from '../verify/verdict-calibration.js';
import { reportPath } from '../util/report-path.js';

export interface DomainCollectOptions {
  data: string;
  domains: DomainName[];
  /** Cap per domain (claims for SciFact, pairs for the others): a seeded sample. */
  limits: Partial<Record<DomainName, number>>;
  cacheDir: string;
  seed: number;
  log: (line: string) => void;
  /** The models to read with (the command's --scorer / --nli / --device); the shipped ones by default. */
  settings?: SettingsInput;
}

/** Items of every domain, from the cache when it was made by the same models and sample. */
export async function collectDomains(o: DomainCollectOptions): Promise<Map<DomainName, DomainItem[]>> {
  const out = new Map<DomainName, DomainItem[]>();
  let vc: Veracite | undefined;
  try {
    for (const domain of o.domains) {
      const cases = domainCases(domain, o.data, { ...(o.limits[domain] !== undefined ? { limit: o.limits[domain] } : {}), seed: o.seed });
      vc ??= await Veracite.open({ ...o.settings, index: { dir: 'memory:' }, retrieval: { mode: 'bm25' }, verify: { rule: 'columbia' } }, { create: true });
      const [scorer, entailment] = await Promise.all([vc.models.scorer(), vc.models.entailment()]);
      const key = { models: [scorer.info, entailment.info].map((m) => `${m.id}@${m.version}`), cases: cases.length, seed: o.seed, limit: o.limits[domain] ?? null };
      const file = join(o.cacheDir, `items-${domain}.json`);
      if (existsSync(file)) {
        const cached = JSON.parse(await readFile(file, 'utf8')) as { key: typeof key; items: DomainItem[] };
        if (JSON.stringify(cached.key) === JSON.stringify(key)) {
          o.log(`${domain}: ${cached.items.length} items from ${file}`);
          out.set(domain, cached.items);
          continue;
        }
      }
      const docs = [...new Map(cases.map((c) => [c.doc.id, c.doc])).values()];
      await vc.requireStore().upsert(docs.map((doc) => ({ doc, passages: chunkPassages(doc) })));
      const verifier = await vc.verifier();
      const t0 = performance.now();
      const items = await collectDomainItems(verifier, domain, cases, (d, t) => (d % 100 === 0 || d === t) && o.log(`${domain}: ${d}/${t} cases read`));
      o.log(`${domain}: ${items.length} items in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify({ key, items }) + '\n');
      out.set(domain, items);
    }
  } finally {
    await vc?.close();
  }
  return out;
}

/** Per domain, the seeded sample read (claims for SciFact, pairs for the others; the rest: all). */
export const DOMAIN_LIMITS: Partial<Record<DomainName, number>> = { snli: 500, scifact: 300, 'scifact-dev': 300, sick: 500, covidfact: 500, healthver: 500 };
/** Items per fitting domain in a fit, so that each domain weighs about the same. */
export const DOMAIN_CAP = 400;

/**
 * P(right) below which a verdict needs review: a stated level, not fitted (docs/RESULTS-HISTORY.md gives, per held-out
 * domain, the share answered at it and their accuracy).
 */
export const REVIEW_LEVEL = 0.6;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function figuresLine(f: DomainFigures): string {
  const recall = LABELS.filter((l) => f.recall[l] !== undefined).map((l) => `${SHORT[l]} ${pct(f.recall[l]!)}`).join(', ');
  return `accuracy ${pct(f.accuracy)} (majority ${SHORT[f.majority.label]} ${pct(f.majority.accuracy)}, ${f.accuracy - f.majority.accuracy >= 0 ? '+' : ''}${(100 * (f.accuracy - f.majority.accuracy)).toFixed(1)} points); recall ${recall}; ECE ${f.ece.toFixed(3)}`;
}
const SHORT: Record<Label, string> = { SUPPORTS: 'S', REFUTES: 'R', 'NOT ENOUGH INFO': 'NEI' };

export function riskCoverageLine(r: RiskCoverage): string {
  const s = r.selectiveAccuracy;
  return `selective accuracy at 25/50/75/100% coverage ${pct(s['25'])} / ${pct(s['50'])} / ${pct(s['75'])} / ${pct(s['100'])}; AURC ${r.aurc.toFixed(3)}; AUROC ${r.auroc.toFixed(3)}; at P(right) >= ${r.atLevel.level}: ${pct(r.atLevel.coverage)} answered, ${pct(r.atLevel.accuracy)} right`;
}

export interface DomainReportOptions extends DomainCollectOptions {
  /** Domains the leave-one-domain-out fit reads (sick only when asked for). */
  fit: DomainName[];
  cap: number;
  out: string;
  reviewOut?: string;
  calibration?: string;
}

export async function runDomainReport(o: DomainReportOptions): Promise<void> {
  const vc = await Veracite.open({ ...o.settings, index: { dir: 'memory:' } }, { create: true });
  let models: ModelInfo[];
  let profileCalibration: string | undefined;
  let profileDir: string | undefined;
  try {
    models = await Promise.all([vc.models.scorer(), vc.models.entailment()]).then((ms) => ms.map((m) => m.info));
    // A profile (--profile verifier) brings its own verdict calibration, and with it the rule verify uses.
    profileCalibration = vc.models.profile?.verdictCalibration;
    profileDir = vc.models.profile?.dir;
  } finally {
    await vc.close();
  }
  // The shipped needs-review model (models/verdict-review.json) is fitted on the package's own calibration's
  // decisions, never on a profile's: with a profile in use, the model fitted on its decisions goes into the profile
  // (its calibration.review, by SHA-256), unless another file is named.
  const reviewOut = o.reviewOut;
  const reviewTarget: { profile: string } | { file: string } | undefined = !reviewOut ? undefined : profileCalibration && profileDir && resolve(reviewOut) === REVIEW_PATH ? { profile: profileDir } : { file: reviewOut };
  const calibrationPath = o.calibration ?? profileCalibration;
  const calibration = loadVerdictCalibration(models, ...(calibrationPath ? [calibrationPath] : []));
  if (!calibration) throw new Error(`${calibrationPath ?? 'models/verdict-calibration.json'} was not fitted with the loaded models (${models.map((m) => m.id).join(' + ')})`);
  const rule = calibration.bestRule;
  if (rule !== 'concat' && rule !== 'columbia') throw new Error(`the domain report reads the concat or the columbia rule's items; the calibration's rule is ${rule}`);
  const shipped = calibration.rules[rule]!;
  // After the checks above, so that a wrong calibration or profile fails before minutes of reading.
  const byDomain = await collectDomains(o);
  const report = leaveOneDomainOut(byDomain, o.fit, shipped, { cap: o.cap, seed: o.seed, level: REVIEW_LEVEL, log: o.log, rule });
  // What ships: the needs-review model fitted on every fit domain's decisions by the shipped rule.
  // Each domain capped as in the held-out fits, so that each weighs about the same.
  const decided = o.fit.flatMap((d) => capped((byDomain.get(d) ?? []).map((it) => decideItem(it, aggregateConfigOf(shipped), false, rule)), o.cap, o.seed, `review-${d}`));
  const model: ReviewModel = { ...fitReview(decided, REVIEW_LEVEL, `leave-one-domain-out domains ${o.fit.join(' + ')} (veracite tune-verdict --domains), decisions of ${calibrationPath ? reportPath(calibrationPath) : 'models/verdict-calibration.json'} rules.${rule}`), models: models.map((m) => ({ id: m.id, version: m.version })) };
  // The audit's judgement of one cited source (oneSourceRule: concat on the joined reading, whatever rule verify
  // uses): its needs-review model is fitted on those decisions.
  const docRule = oneSourceRule(calibration);
  const docDecided = docRule ? new Map(o.fit.map((d) => [d, (byDomain.get(d) ?? []).map((it) => decideItem(it, aggregateConfigOf(docRule), true, 'concat'))] as const)) : undefined;
  const documentReview = docDecided ? reviewHeldOut(docDecided, o.fit, { cap: o.cap, seed: o.seed, level: REVIEW_LEVEL }) : undefined;
  if (docDecided) model.document = { ...fitReview(o.fit.flatMap((d) => capped(docDecided.get(d)!, o.cap, o.seed, `review-${d}`)), REVIEW_LEVEL, `as above, decisions of documentRules.concat (one cited source, the joined reading, as audit/support.ts judges it)`), models: model.models! };
  const finalCheck: Record<string, { verdict: DomainFigures; review: RiskCoverage }> = {};
  for (const d of o.domains.filter((x) => !o.fit.includes(x))) {
    const items = byDomain.get(d) ?? [];
    const dec = items.map((it) => decideItem(it, aggregateConfigOf(shipped), false, rule));
    finalCheck[d] = { verdict: figuresOf(items, dec), review: riskCoverage(dec.map((x) => pRightOf(model, x.signals)), dec.map((x) => x.right), REVIEW_LEVEL) };
  }
  console.log(`verdict rule ${rule}, leave-one-domain-out over ${o.fit.join(', ')} (each fitting domain capped at ${o.cap} items):`);
  console.log(`calibrator family chosen leave-one-domain-out: ${report.family} (${FAMILIES.map((f) => `${f}: worst-domain gain over the majority ${(100 * report.familyChoice[f].worstGain).toFixed(1)} points, mean ${(100 * report.familyChoice[f].meanGain).toFixed(1)}`).join('; ')})`);
  for (const d of o.fit) {
    const v = report.verdict[d]!;
    console.log(`${d} (${v.lodo.items} items)`);
    console.log(`  shipped (SciFact train):  ${figuresLine(v.shipped)}`);
    for (const f of FAMILIES) {
      const x = v.families[f];
      console.log(`  fitted without ${d} (${f}${f === report.family ? ', chosen' : ''}): ${figuresLine(x)} [gate ${x.rule.relevanceThreshold}, support >= ${x.rule.supportThreshold}, refute >= ${x.rule.refuteThreshold}]`);
    }
    console.log(`  needs review (shipped rule): ${riskCoverageLine(report.review[d]!)}`);
    console.log(`  needs review (rule fitted without ${d}): ${riskCoverageLine(report.reviewLodoRule[d]!)}`);
  }
  if (documentReview) for (const d of o.fit) console.log(`${d}: needs review of one cited source (check, audit): ${riskCoverageLine(documentReview[d]!)}`);
  for (const [d, f] of Object.entries(finalCheck)) {
    console.log(`${d} (final check, never fitted on; ${f.verdict.items} items): shipped ${figuresLine(f.verdict)}`);
    console.log(`  needs review (model fitted on ${o.fit.join(' + ')}): ${riskCoverageLine(f.review)}`);
  }
  await mkdir(dirname(o.out), { recursive: true });
  await writeFile(o.out, JSON.stringify({ task: 'verdict-domains', createdAt: new Date().toISOString(), rule, models: model.models, level: REVIEW_LEVEL, ...report, ...(documentReview ? { documentReview } : {}), finalCheck, reviewModel: model }, null, 2) + '\n');
  console.log(`saved ${o.out}`);
  if (reviewTarget) {
    const text = JSON.stringify(model, null, 2) + '\n';
    const saved = 'profile' in reviewTarget ? await writeProfileCalibration(reviewTarget.profile, 'review', text) : (await writeFile(reviewTarget.file, text), reviewTarget.file);
    console.log(`saved the needs-review model (level ${REVIEW_LEVEL}) to ${saved}${'profile' in reviewTarget ? ` (recorded in ${join(reviewTarget.profile, PROFILE_FILE)})` : ''}`);
  }
}
