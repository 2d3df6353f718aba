/**
 * Fits the verdict rule's thresholds and the confidence temperature on labelled (claim, document) pairs
 * (SciFact train, oracle abstracts), never on the evaluation split. The per-pair entailment
 * probabilities are computed once; the grid search then replays the ColumbiaNLP rule on them.
 *
 * Output (models/verdict-calibration.json) is tied to the model ids it was fitted with: the Verifier
 * applies it only when the same evidence scorer and entailment model are loaded.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EntailmentProbs, ModelInfo } from '../../models/types.js';
import { aggregateColumbia, DEFAULT_AGGREGATE, type AggregateConfig, type VerdictRule } from '../../verify/aggregate.js';
import type { Label } from '../../verify/types.js';
import { CALIBRATION_PATH, type RuleCalibration, type VerdictCalibration } from '../../verify/verdict-calibration.js';

export { CALIBRATION_PATH };

export interface LabelledPairs {
  /** Entailment probabilities of each evidence sentence of one (claim, document) pair. */
  evidence: EntailmentProbs[];
  gold: Label;
}

function accuracy(items: LabelledPairs[], cfg: AggregateConfig): number {
  let ok = 0;
  for (const it of items) if (aggregateColumbia(it.evidence, cfg).label === it.gold) ok++;
  return items.length ? ok / items.length : 0;
}

function nll(items: LabelledPairs[], cfg: AggregateConfig): number {
  let sum = 0;
  for (const it of items) sum -= Math.log(Math.max(1e-9, aggregateColumbia(it.evidence, cfg).probs[it.gold]));
  return items.length ? sum / items.length : 0;
}

/**
 * Fits one rule. For `concat` each item holds the single prediction on the concatenated evidence: the
 * ColumbiaNLP rule over one pair makes the same decisions as the concat rule.
 */
export function fitRule(items: LabelledPairs[], source: string): RuleCalibration {
  const grid: number[] = [];
  for (let t = 0.1; t <= 0.9001; t += 0.025) grid.push(+t.toFixed(3));
  let best = { s: 0.5, r: 0.5, acc: -1 };
  for (const s of grid) {
    for (const r of grid) {
      const acc = accuracy(items, { ...DEFAULT_AGGREGATE, supportThreshold: s, refuteThreshold: r });
      // Ties go to thresholds nearer 0.5: the least surprising setting among equals.
      const closer = Math.abs(s - 0.5) + Math.abs(r - 0.5) < Math.abs(best.s - 0.5) + Math.abs(best.r - 0.5);
      if (acc > best.acc + 1e-12 || (Math.abs(acc - best.acc) <= 1e-12 && closer)) best = { s, r, acc };
    }
  }
  const base = { ...DEFAULT_AGGREGATE, supportThreshold: best.s, refuteThreshold: best.r };
  let bestT = { t: 1, nll: nll(items, base) };
  for (let t = 0.2; t <= 4.0001; t += 0.05) {
    const v = nll(items, { ...base, temperature: t });
    if (v < bestT.nll) bestT = { t: +t.toFixed(2), nll: v };
  }
  const counts = new Map<Label, number>();
  for (const it of items) counts.set(it.gold, (counts.get(it.gold) ?? 0) + 1);
  const majority = Math.max(0, ...counts.values());
  return {
    supportThreshold: best.s,
    refuteThreshold: best.r,
    temperature: bestT.t,
    fittedOn: {
      source,
      pairs: items.length,
      accuracy: best.acc,
      majorityBaseline: items.length ? majority / items.length : 0,
      defaultAccuracy: accuracy(items, DEFAULT_AGGREGATE),
      nll: bestT.nll,
    },
  };
}

export function fitVerdictCalibration(byRule: Partial<Record<VerdictRule, LabelledPairs[]>>, source: string, models: ModelInfo[]): VerdictCalibration {
  const rules: Partial<Record<VerdictRule, RuleCalibration>> = {};
  for (const [rule, items] of Object.entries(byRule) as [VerdictRule, LabelledPairs[]][]) rules[rule] = fitRule(items, source);
  const bestRule = (Object.entries(rules) as [VerdictRule, RuleCalibration][]).sort((a, b) => b[1].fittedOn.accuracy - a[1].fittedOn.accuracy)[0]![0];
  return { rules, bestRule, models: models.map((m) => ({ id: m.id, version: m.version })), createdAt: new Date().toISOString() };
}

export async function saveVerdictCalibration(c: VerdictCalibration, path = CALIBRATION_PATH): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(c, null, 2) + '\n');
}

