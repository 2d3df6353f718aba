/**
 * The summary `veracite verify --claims` ends with: how many claims got each label, the agreement with the
 * gold labels when the claims file has them, and the throughput. A gold label is read from a `label` field
 * (any usual spelling: SUPPORTS / SUPPORT / SUPPORTED, REFUTES / CONTRADICT, NOT ENOUGH INFO / NEI; see
 * eval/label-aliases.ts), else from SciFact's `evidence` ({docId: [{label: SUPPORT | CONTRADICT}]}; empty =
 * NOT ENOUGH INFO). A line with neither has no gold label and is counted apart.
 */
import { verdictLabel } from '../eval/label-aliases.js';
import { LABELS, type Label } from '../verify/types.js';

/** The gold label of one claims-file line, or undefined when it gives none. */
export function goldLabelOf(fields: Record<string, unknown>): Label | undefined {
  if (fields.label !== undefined) return verdictLabel(fields.label);
  const evidence = fields.evidence;
  if (evidence === null || typeof evidence !== 'object' || Array.isArray(evidence)) return undefined;
  const sets = Object.values(evidence as Record<string, unknown>).flat() as { label?: unknown }[];
  if (sets.length === 0) return 'NOT ENOUGH INFO';
  return verdictLabel(sets[0]?.label);
}

export interface ClaimsSummary {
  /** Claims verified in this run. */
  verified: number;
  /** Claims skipped because --out already had them. */
  skipped: number;
  /** Labels over the whole --out file for this claims file: this run's verdicts and those an earlier run wrote. */
  labels: Record<Label, number>;
  /** Agreement with the gold labels over the same claims (this run's and the earlier ones), those with a gold label; undefined when none has. */
  gold?: { n: number; agree: number; accuracy: number; byGold: Record<Label, { n: number; agree: number }>; macroF1: number };
  seconds: number;
  claimsPerSecond: number;
}

const zeroes = <T>(make: () => T): Record<Label, T> => Object.fromEntries(LABELS.map((l) => [l, make()])) as Record<Label, T>;

/** Collects the verdicts of a batch run: `add` per verified claim, `addEarlier` per claim --out already had. */
export class ClaimsTally {
  private readonly labels = zeroes(() => 0);
  private readonly pairs: { predicted: Label; gold: Label }[] = [];
  private verified = 0;
  skipped = 0;

  add(predicted: Label, gold?: Label): void {
    this.verified++;
    this.count(predicted, gold);
  }

  /** A claim an earlier run verified (its stored label; undefined when that line carries none it can read). */
  addEarlier(predicted: Label | undefined, gold?: Label): void {
    this.skipped++;
    if (predicted) this.count(predicted, gold);
  }

  private count(predicted: Label, gold?: Label): void {
    this.labels[predicted]++;
    if (gold) this.pairs.push({ predicted, gold });
  }

  summary(seconds: number): ClaimsSummary {
    const out: ClaimsSummary = {
      verified: this.verified,
      skipped: this.skipped,
      labels: { ...this.labels },
      seconds,
      claimsPerSecond: seconds > 0 ? this.verified / seconds : 0,
    };
    if (this.pairs.length) {
      const byGold = zeroes(() => ({ n: 0, agree: 0 }));
      for (const p of this.pairs) {
        byGold[p.gold].n++;
        if (p.predicted === p.gold) byGold[p.gold].agree++;
      }
      const agree = this.pairs.filter((p) => p.predicted === p.gold).length;
      // Macro-F1 over the labels present in the gold or the predictions (a label in neither is left out).
      const f1s = LABELS.flatMap((l) => {
        const tp = byGold[l].agree;
        const predicted = this.pairs.filter((p) => p.predicted === l).length;
        if (byGold[l].n === 0 && predicted === 0) return [];
        return [tp === 0 ? 0 : (2 * tp) / (byGold[l].n + predicted)];
      });
      out.gold = { n: this.pairs.length, agree, accuracy: agree / this.pairs.length, byGold, macroF1: f1s.reduce((a, b) => a + b, 0) / f1s.length };
    }
    return out;
  }
}

/** The summary in words, a few lines for the terminal. */
export function summaryLines(s: ClaimsSummary, out: string): string[] {
  const lines = [
    `verified ${s.verified} claims (${s.skipped} already in ${out}) -> ${out} in ${s.seconds.toFixed(1)} s (${s.claimsPerSecond.toFixed(2)} claims/s)`,
    `  labels${s.skipped ? ` (all ${s.verified + s.skipped} claims, this run's and the ${s.skipped} before)` : ''}: ${LABELS.map((l) => `${l} ${s.labels[l]}`).join(', ')}`,
  ];
  const g = s.gold;
  if (g) {
    const per = LABELS.filter((l) => g.byGold[l].n > 0).map((l) => `${l} ${g.byGold[l].agree}/${g.byGold[l].n}`).join(', ');
    lines.push(`  agreement with the gold labels: ${g.agree}/${g.n} (accuracy ${g.accuracy.toFixed(3)}, macro-F1 ${g.macroF1.toFixed(3)}); per gold label: ${per}`);
    if (g.n < s.verified + s.skipped) lines.push(`  (${s.verified + s.skipped - g.n} claims have no gold label)`);
  } else if (s.verified + s.skipped > 0) lines.push('  no gold labels in the claims file ("label", or SciFact "evidence"): agreement not measured');
  return lines;
}
