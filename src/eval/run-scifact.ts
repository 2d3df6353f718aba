/**
 * SciFact evaluation of the verifier, with the official metrics (scifact-metrics.ts):
 *  - oracle setting: each claim is checked against its cited abstracts (given);
 *  - open setting: abstracts are retrieved from the index (top `openDocs`).
 * Per (claim, abstract) the verifier selects up to 3 rationale sentences within the abstract and labels
 * it; SUPPORTS/REFUTES become SUPPORT/CONTRADICT predictions, NOT ENOUGH INFO predicts nothing.
 * Also reports oracle label accuracy over (claim, cited abstract) pairs against the majority class.
 */
import { readFile } from 'node:fs/promises';
import type { Retriever } from '../retrieve/retriever.js';
import type { Verifier, DocumentVerdict } from '../verify/verifier.js';
import type { Label } from '../verify/types.js';
import { reliability, type Reliability } from '../verify/reliability.js';
import { scifactMetrics, type SciFactGoldClaim, type SciFactMetrics, type SciFactPrediction } from './scifact-metrics.js';

export interface SciFactClaim extends SciFactGoldClaim {
  id: number;
  claim: string;
  cited_doc_ids: number[];
}

export async function readSciFactClaims(path: string): Promise<SciFactClaim[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.trim())
    .map(({ l, i }) => {
      try {
        const c = JSON.parse(l) as SciFactClaim;
        if (typeof c.claim !== 'string' || !Array.isArray(c.cited_doc_ids)) throw new Error('needs "claim" and "cited_doc_ids"');
        c.evidence ??= {};
        return c;
      } catch (e) {
        throw new Error(`${path}:${i + 1}: ${(e as Error).message}`);
      }
    });
}

const TO_SCIFACT: Record<Label, 'SUPPORT' | 'CONTRADICT' | null> = { SUPPORTS: 'SUPPORT', REFUTES: 'CONTRADICT', 'NOT ENOUGH INFO': null };

export function toPrediction(id: number, verdicts: DocumentVerdict[]): SciFactPrediction {
  const evidence: SciFactPrediction['evidence'] = {};
  for (const v of verdicts) {
    const label = TO_SCIFACT[v.label];
    if (label) evidence[v.docId] = { label, sentences: v.evidence.map((e) => e.sentenceIndex) };
  }
  return { id, evidence };
}

function goldLabel(c: SciFactClaim, docId: string): 'SUPPORT' | 'CONTRADICT' | 'NOT_ENOUGH_INFO' {
  return c.evidence[docId]?.[0]?.label ?? 'NOT_ENOUGH_INFO';
}

export interface SciFactEvalResult {
  setting: 'oracle' | 'open';
  nClaims: number;
  metrics: SciFactMetrics;
  /** Oracle only: label accuracy over (claim, cited abstract) pairs. */
  labelAccuracy?: {
    accuracy: number;
    majorityBaseline: number;
    majorityLabel: string;
    pairs: number;
    confusion: Record<string, Record<string, number>>;
    /** Recall per gold label (CONTRADICT especially: what contrast training is for). */
    recall: Record<string, number>;
  };
  /**
   * Oracle only: how well the stated probabilities match outcomes over (claim, abstract) pairs. `confidence`:
   * the verdict's confidence vs the verdict being right; `support`: P(SUPPORTS) vs the gold label being SUPPORT.
   */
  calibration?: { confidence: Reliability; support: Reliability };
  claimsPerSecond: number;
  latencyMs: { p50: number; p95: number };
}

export interface SciFactEvalOptions {
  setting: 'oracle' | 'open';
  /** Abstracts retrieved per claim in the open setting (VeriSci uses 3). */
  openDocs?: number;
  retriever?: Retriever;
  onProgress?: (done: number, total: number) => void;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! : NaN;
}

export async function runSciFactEval(verifier: Verifier, claims: SciFactClaim[], opts: SciFactEvalOptions): Promise<SciFactEvalResult> {
  const predictions: SciFactPrediction[] = [];
  const confusion: Record<string, Record<string, number>> = {};
  const times: number[] = [];
  let pairs = 0;
  let correct = 0;
  const conf: number[] = [];
  const right: boolean[] = [];
  const pSupport: number[] = [];
  const isSupport: boolean[] = [];
  const goldCounts: Record<string, number> = {};
  const started = performance.now();
  for (const [i, c] of claims.entries()) {
    const t = performance.now();
    let docIds: string[];
    if (opts.setting === 'oracle') docIds = c.cited_doc_ids.map(String);
    else {
      if (!opts.retriever) throw new Error('the open setting needs a retriever');
      const r = await opts.retriever.search(c.claim, { k: opts.openDocs ?? 3 });
      docIds = r.documents.map((d) => d.docId);
    }
    const verdicts = await verifier.verifyEachDocument(c.claim, docIds);
    times.push(performance.now() - t);
    predictions.push(toPrediction(c.id, verdicts));
    if (opts.setting === 'oracle') {
      for (const v of verdicts) {
        const gold = goldLabel(c, v.docId);
        const pred = TO_SCIFACT[v.label] ?? 'NOT_ENOUGH_INFO';
        confusion[gold] ??= {};
        confusion[gold]![pred] = (confusion[gold]![pred] ?? 0) + 1;
        goldCounts[gold] = (goldCounts[gold] ?? 0) + 1;
        pairs++;
        if (gold === pred) correct++;
        conf.push(v.confidence);
        right.push(gold === pred);
        pSupport.push(v.probs.SUPPORTS);
        isSupport.push(gold === 'SUPPORT');
      }
    }
    opts.onProgress?.(i + 1, claims.length);
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const result: SciFactEvalResult = {
    setting: opts.setting,
    nClaims: claims.length,
    metrics: scifactMetrics(predictions, claims, { missing: 'empty' }),
    claimsPerSecond: claims.length / seconds,
    latencyMs: { p50: percentile(times, 50), p95: percentile(times, 95) },
  };
  if (opts.setting === 'oracle') {
    const [majorityLabel, majorityCount] = Object.entries(goldCounts).sort((a, b) => b[1] - a[1])[0] ?? ['NOT_ENOUGH_INFO', 0];
    const recall = Object.fromEntries(Object.entries(confusion).map(([g, row]) => [g, (row[g] ?? 0) / Math.max(1, Object.values(row).reduce((a, b) => a + b, 0))]));
    result.labelAccuracy = { accuracy: pairs ? correct / pairs : 0, majorityBaseline: pairs ? majorityCount / pairs : 0, majorityLabel, pairs, confusion, recall };
    result.calibration = { confidence: reliability(conf, right), support: reliability(pSupport, isSupport) };
  }
  return result;
}
