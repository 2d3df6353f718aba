/**
 * FEVER evaluation of the verifier: claims from a FEVER-format file, evidence from an index built over
 * FEVER wiki-pages (page id = document id, line number = sentence index), scored with the official
 * scorer (fever-score.ts). Predictions can be written in the official submission format.
 */
import { readFile } from 'node:fs/promises';
import type { Verifier } from '../verify/verifier.js';
import { feverScore, type FeverGold, type FeverPrediction, type FeverScoreResult } from './fever-score.js';

export interface FeverClaim extends FeverGold {
  id: number;
  claim: string;
}

export async function readFeverClaims(path: string, limit?: number): Promise<FeverClaim[]> {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const out: FeverClaim[] = [];
  for (const [i, l] of lines.entries()) {
    if (!l.trim()) continue;
    let c: FeverClaim;
    try {
      c = JSON.parse(l) as FeverClaim;
    } catch (e) {
      throw new Error(`${path}:${i + 1}: invalid JSON (${(e as Error).message})`);
    }
    if (typeof c.claim !== 'string') throw new Error(`${path}:${i + 1} field "claim": missing or not a string`);
    if (typeof c.label !== 'string' || !Array.isArray(c.evidence)) throw new Error(`${path}:${i + 1} field "label"/"evidence": gold labels are needed to score`);
    out.push(c);
    if (limit && out.length >= limit) break;
  }
  return out;
}

export interface FeverEvalResult {
  score: FeverScoreResult;
  predictions: (FeverPrediction & { id: number })[];
  claimsPerSecond: number;
}

export async function runFeverEval(verifier: Verifier, claims: FeverClaim[], onProgress?: (done: number, total: number) => void): Promise<FeverEvalResult> {
  const predictions: (FeverPrediction & { id: number })[] = [];
  const started = performance.now();
  for (const [i, c] of claims.entries()) {
    const v = await verifier.verify(c.claim);
    predictions.push({
      id: c.id,
      predicted_label: v.label,
      predicted_evidence: v.evidence.map((e) => [e.docId, e.sentenceIndex] as [string, number]),
    });
    onProgress?.(i + 1, claims.length);
  }
  const seconds = (performance.now() - started) / 1000;
  return { score: feverScore(predictions, claims), predictions, claimsPerSecond: claims.length / seconds };
}
