/**
 * SciFact evaluation as in the paper: allenai/scifact `verisci/evaluate/lib/metrics.py` (`compute_metrics`), with
 * the gold/prediction parsing of `verisci/evaluate/lib/data.py`, ported line by line.
 *
 * Behaviours that follow the official code:
 * - Gold: a claim's `evidence` maps doc id -> rationale sets, all with one label; a claim with `evidence: {}` (NEI)
 *   has no gold doc, and cited docs without evidence are not gold either. Doc ids compare as integers (`int(key)`).
 * - Abstract level: relevant += number of gold evidence docs; every predicted doc whose label is not NEI is
 *   retrieved. It is correct (label only) when it is a gold doc and the label matches; correct (rationalized) when,
 *   in addition, the set of its FIRST 3 predicted sentences contains one whole gold rationale set.
 * - Sentence level: relevant += total length of all gold rationale sets; retrieved += number of predicted sentences
 *   of each non-NEI predicted doc (all of them, no cap, duplicates included). A predicted sentence (deduplicated) is
 *   correct for selection when it belongs to a gold rationale set whose every sentence is predicted; for
 *   selection+label the doc's predicted label must also match the gold label.
 * - P = correct / retrieved, R = correct / relevant, F1 = 2PR / (P + R).
 * - A sentence in two rationale sets of one doc, or a doc with mixed gold labels, is an error (official asserts).
 *
 * Choices where the official code raises or is silent:
 * - Division by zero (nothing retrieved / nothing relevant / P + R = 0) gives 0 instead of ZeroDivisionError.
 * - Predicted label "NOT_ENOUGH_INFO" is skipped, as `metrics.py` does (the official parser rejects it earlier).
 * - The official loop only visits claims present in the predictions, so a claim missing from the prediction file
 *   silently drops its gold docs from "relevant". Here `missing` chooses: 'error' (default), 'empty' (score it as
 *   "no evidence predicted"), or 'ignore' (the official behaviour). Predictions for unknown or duplicated claim ids
 *   are errors.
 * - The result key `abstract_rationalized` is spelled correctly (the official DataFrame column is
 *   "abstract_rationalied").
 */

/** Cap on rationale sentences used at abstract level (official MAX_ABSTRACT_SENTS). */
export const MAX_ABSTRACT_SENTS = 3;

export type SciFactLabel = 'SUPPORT' | 'CONTRADICT';

export interface SciFactPrediction {
  id: number | string;
  evidence: Record<string, { label: SciFactLabel | 'NOT_ENOUGH_INFO'; sentences: number[] }>;
}

/** One line of claims_{train,dev}.jsonl. */
export interface SciFactGoldClaim {
  id: number | string;
  claim?: string;
  evidence: Record<string, { sentences: number[]; label: SciFactLabel }[]>;
  cited_doc_ids?: (number | string)[];
}

export interface PRF {
  precision: number;
  recall: number;
  f1: number;
}

export interface SciFactMetrics {
  abstract_label_only: PRF;
  abstract_rationalized: PRF;
  sentence_selection: PRF;
  sentence_label: PRF;
  counts: {
    abstract: { retrieved: number; relevant: number; correct_label_only: number; correct_rationalized: number };
    sentence: { retrieved: number; relevant: number; correct_selection: number; correct_label: number };
  };
  /** Claims scored. */
  nClaims: number;
}

export interface SciFactMetricsOptions {
  missing?: 'error' | 'empty' | 'ignore';
}

interface GoldDoc {
  label: SciFactLabel;
  rationales: Set<number>[];
  /** Sum of rationale lengths as given (the official code counts list lengths). */
  nSentences: number;
}

/** Official ids are ints: "007" and 7 are the same doc / claim. Non-numeric ids are kept as they are. */
function normId(id: number | string): string {
  const s = String(id).trim();
  return /^-?\d+$/.test(s) ? BigInt(s).toString() : s;
}

function goldDocs(claim: SciFactGoldClaim): Map<string, GoldDoc> {
  const out = new Map<string, GoldDoc>();
  for (const [docKey, rationales] of Object.entries(claim.evidence ?? {})) {
    const labels = new Set(rationales.map((r) => r.label));
    if (labels.size !== 1) {
      throw new Error(`claim ${claim.id}, doc ${docKey}: each claim / abstract pair must have exactly one label`);
    }
    const [label] = labels;
    if (label !== 'SUPPORT' && label !== 'CONTRADICT') {
      throw new Error(`claim ${claim.id}, doc ${docKey}: unknown gold label ${JSON.stringify(label)}`);
    }
    const sets = rationales.map((r) => new Set(r.sentences));
    const seen = new Set<number>();
    for (const s of sets) {
      for (const ix of s) {
        if (seen.has(ix)) throw new Error(`claim ${claim.id}, doc ${docKey}: sentence ${ix} is in two rationales`);
        seen.add(ix);
      }
    }
    out.set(normId(docKey), { label, rationales: sets, nSentences: rationales.reduce((n, r) => n + r.sentences.length, 0) });
  }
  return out;
}

const isSubset = (a: Set<number>, b: Set<number>): boolean => [...a].every((x) => b.has(x));

function prf(correct: number, retrieved: number, relevant: number): PRF {
  const precision = retrieved > 0 ? correct / retrieved : 0;
  const recall = relevant > 0 ? correct / relevant : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

export function scifactMetrics(
  predictions: readonly SciFactPrediction[],
  gold: readonly SciFactGoldClaim[],
  opts: SciFactMetricsOptions = {},
): SciFactMetrics {
  const missing = opts.missing ?? 'error';
  const goldById = new Map<string, SciFactGoldClaim>();
  for (const c of gold) {
    const id = normId(c.id);
    if (goldById.has(id)) throw new Error(`duplicate gold claim id ${c.id}`);
    goldById.set(id, c);
  }
  const predById = new Map<string, SciFactPrediction>();
  for (const p of predictions) {
    const id = normId(p.id);
    if (!goldById.has(id)) throw new Error(`prediction for claim ${p.id}, which is not in the gold data`);
    if (predById.has(id)) throw new Error(`duplicate prediction for claim ${p.id}`);
    predById.set(id, p);
  }
  const toScore: [SciFactGoldClaim, SciFactPrediction][] = [];
  for (const [id, claim] of goldById) {
    const p = predById.get(id);
    if (p) toScore.push([claim, p]);
    else if (missing === 'error') throw new Error(`no prediction for claim ${claim.id} (options.missing chooses)`);
    else if (missing === 'empty') toScore.push([claim, { id: claim.id, evidence: {} }]);
  }

  const a = { retrieved: 0, relevant: 0, correct_label_only: 0, correct_rationalized: 0 };
  const s = { retrieved: 0, relevant: 0, correct_selection: 0, correct_label: 0 };
  for (const [claim, pred] of toScore) {
    const gdocs = goldDocs(claim);
    a.relevant += gdocs.size;
    for (const g of gdocs.values()) s.relevant += g.nSentences;

    for (const [docKey, dp] of Object.entries(pred.evidence ?? {})) {
      if (dp.label === 'NOT_ENOUGH_INFO') continue;
      if (dp.label !== 'SUPPORT' && dp.label !== 'CONTRADICT') {
        throw new Error(`claim ${pred.id}, doc ${docKey}: unknown predicted label ${JSON.stringify(dp.label)}`);
      }
      for (const ix of dp.sentences) {
        if (!Number.isInteger(ix)) throw new Error(`claim ${pred.id}, doc ${docKey}: sentence index ${ix} is not an integer`);
      }
      const g = gdocs.get(normId(docKey));

      // Abstract level: first 3 sentences only.
      a.retrieved += 1;
      if (g && g.label === dp.label) {
        a.correct_label_only += 1;
        const top = new Set(dp.sentences.slice(0, MAX_ABSTRACT_SENTS));
        if (g.rationales.some((r) => isSubset(r, top))) a.correct_rationalized += 1;
      }

      // Sentence level: all sentences.
      s.retrieved += dp.sentences.length;
      if (!g) continue;
      const predicted = new Set(dp.sentences);
      let nCorrect = 0;
      for (const ix of predicted) {
        const set = g.rationales.find((r) => r.has(ix));
        if (set && isSubset(set, predicted)) nCorrect += 1;
      }
      s.correct_selection += nCorrect;
      if (g.label === dp.label) s.correct_label += nCorrect;
    }
  }
  return {
    abstract_label_only: prf(a.correct_label_only, a.retrieved, a.relevant),
    abstract_rationalized: prf(a.correct_rationalized, a.retrieved, a.relevant),
    sentence_selection: prf(s.correct_selection, s.retrieved, s.relevant),
    sentence_label: prf(s.correct_label, s.retrieved, s.relevant),
    counts: { abstract: a, sentence: s },
    nClaims: toScore.length,
  };
}
