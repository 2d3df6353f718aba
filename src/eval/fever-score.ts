/**
 * The official FEVER scorer (github.com/sheffieldnlp/fever-scorer, src/fever/scorer.py,
 * `fever_score(predictions, actual=None, max_evidence=5)`), ported line by line.
 *
 * Behaviours that follow the official code (kept even where they look odd, so numbers match published ones):
 * - Labels are compared case-insensitively (`.upper()` on both sides).
 * - `predicted_evidence` is cut to its first `max_evidence` (default 5) entries for the strict score, precision and
 *   recall; `maxEvidence = null` means no cut (Python `max_evidence=None`).
 * - Strict score: label correct AND (gold label is NEI, OR some gold evidence group has every [page, line] inside
 *   the cut predicted evidence). Groups are matched as given: a sentence with a null page/line can never be matched,
 *   so such groups never count (in the data only NEI claims have them, and NEI skips evidence anyway). A gold
 *   non-NEI instance with an empty evidence list is never strictly correct; an empty group always matches.
 * - Precision (macro over instances whose GOLD label is not NEI, whatever the predicted label): for each cut
 *   predicted sentence, `this_precision_hits += 1` and `this_precision += 1` when it is among the gold sentences
 *   of any group (sentences with a null line are dropped first). Duplicated predictions are counted each time.
 *   An instance with no predicted sentence scores precision 1.0 (`... if this_precision_hits > 0 else 1.0`).
 *   Overall precision = sum / number of non-NEI instances, and 1.0 if there is none.
 * - Recall (macro over gold non-NEI instances): 1 when a full gold group is inside the cut predicted evidence,
 *   else 0; 1 when the gold evidence list is empty. (The official `all(len(eg) == 0 for eg in instance)` iterates
 *   over the dict's keys and is therefore always False; only `len(evidence) == 0` matters.) Overall recall =
 *   sum / number of non-NEI instances, and 0.0 if there is none.
 * - F1 = 2PR / (P + R).
 * - Blind mode: when a prediction lacks `label` or `evidence`, both are taken from `actual[idx]`, which must then
 *   have the same length as `predictions`. Otherwise the prediction's own gold fields are used.
 *
 * Deliberate differences, only on inputs where Python raises:
 * - P + R = 0 gives F1 = 0 (Python: ZeroDivisionError); an empty prediction list throws a RangeError.
 * - Every prediction's evidence format is checked ([string page, integer line]); the official code checks it only
 *   for instances whose label is correct.
 */

export const NEI = 'NOT ENOUGH INFO';

/** A predicted evidence sentence: [Wikipedia page, sentence index]. */
export type PredictedSentence = [page: string, line: number];
/** A gold evidence sentence as in FEVER jsonl: [annotation id, evidence id, page, line]; NEI has nulls. */
export type GoldSentence = [annotationId: number | null, evidenceId: number | null, page: string | null, line: number | null];

export interface FeverGold {
  label: string;
  /** Alternative evidence groups; any one complete group is enough. */
  evidence: GoldSentence[][];
}

export interface FeverPrediction {
  predicted_label: string;
  predicted_evidence: PredictedSentence[];
  /** Gold fields may travel with the prediction (non-blind mode). */
  label?: string;
  evidence?: GoldSentence[][];
}

/** Official return values `(strict_score, acc_score, pr, rec, f1)` under the official variable names. */
export interface FeverScoreResult {
  /** The FEVER score. */
  strict_score: number;
  /** Label accuracy. */
  acc_score: number;
  /** Evidence precision (macro). */
  precision: number;
  /** Evidence recall (macro). */
  recall: number;
  /** Evidence F1. */
  f1: number;
  /** Instances scored, and those with a non-NEI gold label (the precision / recall denominators). */
  n: number;
  nVerifiable: number;
}

/** A prediction joined with its gold, as the official per-instance functions see it. */
export interface ScoredInstance {
  label: string;
  evidence: GoldSentence[][];
  predicted_label: string;
  predicted_evidence: PredictedSentence[];
}

const isNei = (label: string): boolean => label.toUpperCase() === NEI;

/** Python list equality on [page, line]: the key must distinguish null from "null", so JSON is used. */
const key = (page: string | null, line: number | null): string => JSON.stringify([page, line]);

function cut(evidence: PredictedSentence[], maxEvidence: number | null): PredictedSentence[] {
  return maxEvidence === null ? evidence : evidence.slice(0, maxEvidence);
}

function checkPredictedEvidenceFormat(pred: unknown, idx: number): asserts pred is PredictedSentence[] {
  if (!Array.isArray(pred)) throw new TypeError(`prediction ${idx}: predicted_evidence must be a list`);
  pred.forEach((p, j) => {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || !Number.isInteger(p[1])) {
      throw new TypeError(
        `prediction ${idx}: predicted_evidence[${j}] must be [page<string>, line<int>], got ${JSON.stringify(p)}`,
      );
    }
  });
}

export function isCorrectLabel(instance: { label: string; predicted_label: string }): boolean {
  return instance.label.toUpperCase() === instance.predicted_label.toUpperCase();
}

/** Every sentence of some gold group is among the (cut) predicted sentences. */
function coversAGroup(evidence: GoldSentence[][], predicted: PredictedSentence[]): boolean {
  const pred = new Set(predicted.map(([p, l]) => key(p, l)));
  return evidence.some((group) => group.every((e) => pred.has(key(e[2], e[3]))));
}

export function isStrictlyCorrect(instance: ScoredInstance, maxEvidence: number | null = null): boolean {
  if (!isCorrectLabel(instance)) return false;
  if (isNei(instance.label)) return true; // NEI: evidence is not scored
  return coversAGroup(instance.evidence, cut(instance.predicted_evidence, maxEvidence));
}

/** [precision of this instance, 1] for gold non-NEI, [0, 0] otherwise (official `evidence_macro_precision`). */
export function evidenceMacroPrecision(instance: ScoredInstance, maxEvidence: number | null = null): [number, number] {
  if (isNei(instance.label)) return [0, 0];
  const allEvi = new Set<string>();
  for (const group of instance.evidence) for (const e of group) if (e[3] !== null) allEvi.add(key(e[2], e[3]));
  let thisPrecision = 0;
  let thisPrecisionHits = 0;
  for (const [page, line] of cut(instance.predicted_evidence, maxEvidence)) {
    if (allEvi.has(key(page, line))) thisPrecision += 1;
    thisPrecisionHits += 1;
  }
  return [thisPrecisionHits > 0 ? thisPrecision / thisPrecisionHits : 1.0, 1];
}

/** [1 if a complete group is covered, 1] for gold non-NEI, [0, 0] otherwise (official `evidence_macro_recall`). */
export function evidenceMacroRecall(instance: ScoredInstance, maxEvidence: number | null = null): [number, number] {
  if (isNei(instance.label)) return [0, 0];
  if (instance.evidence.length === 0) return [1, 1];
  return [coversAGroup(instance.evidence, cut(instance.predicted_evidence, maxEvidence)) ? 1 : 0, 1];
}

export function feverScore(
  predictions: readonly FeverPrediction[],
  actual?: readonly FeverGold[],
  maxEvidence: number | null = 5,
): FeverScoreResult {
  if (maxEvidence !== null && (!Number.isInteger(maxEvidence) || maxEvidence < 0)) {
    throw new RangeError(`maxEvidence must be a non-negative integer or null, got ${maxEvidence}`);
  }
  if (predictions.length === 0) throw new RangeError('no predictions to score');
  let correct = 0;
  let strict = 0;
  let macroPrecision = 0;
  let macroPrecisionHits = 0;
  let macroRecall = 0;
  let macroRecallHits = 0;

  predictions.forEach((p, idx) => {
    checkPredictedEvidenceFormat(p.predicted_evidence, idx);
    let label = p.label;
    let evidence = p.evidence;
    // Blind test set: gold comes from `actual`, aligned by position.
    if (evidence === undefined || label === undefined) {
      if (actual === undefined) throw new Error('in blind evaluation mode, actual data must be provided');
      if (actual.length !== predictions.length) throw new Error('actual data and predicted data length must match');
      const gold = actual[idx];
      if (gold.evidence === undefined) throw new Error(`actual[${idx}]: evidence must be provided`);
      label = gold.label;
      evidence = gold.evidence;
    }
    const inst: ScoredInstance = {
      label,
      evidence,
      predicted_label: p.predicted_label,
      predicted_evidence: p.predicted_evidence,
    };
    if (isCorrectLabel(inst)) {
      correct += 1;
      if (isStrictlyCorrect(inst, maxEvidence)) strict += 1;
    }
    const [prec, precHits] = evidenceMacroPrecision(inst, maxEvidence);
    macroPrecision += prec;
    macroPrecisionHits += precHits;
    const [rec, recHits] = evidenceMacroRecall(inst, maxEvidence);
    macroRecall += rec;
    macroRecallHits += recHits;
  });

  const total = predictions.length;
  const pr = macroPrecisionHits > 0 ? macroPrecision / macroPrecisionHits : 1.0;
  const rec = macroRecallHits > 0 ? macroRecall / macroRecallHits : 0.0;
  return {
    strict_score: strict / total,
    acc_score: correct / total,
    precision: pr,
    recall: rec,
    f1: pr + rec > 0 ? (2.0 * pr * rec) / (pr + rec) : 0,
    n: total,
    nVerifiable: macroRecallHits,
  };
}
