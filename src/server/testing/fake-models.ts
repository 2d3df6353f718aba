/**
 * Deterministic stand-ins for the model roles (src/models/types.ts), for the API tests: word overlap
 * decides evidence and entailment, so results are predictable and instant. `gate` lets a test hold
 * every entailment call until it says so (queue and timeout tests); like a backend between its batches,
 * a held call gives up when the caller's signal aborts (deadline tests).
 */
import type { EntailmentModel, EntailmentPair, EntailmentProbs, Embedder, PairScorer, ScoredPair } from '../../models/types.js';
import type { VerifierModels } from '../../verify/verifier.js';

function words(s: string): Set<string> {
  return new Set(s.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);
}

/** Share of `a`'s words that appear in `b`. */
export function overlap(a: string, b: string): number {
  const wa = words(a);
  if (wa.size === 0) return 0;
  const wb = words(b);
  let n = 0;
  for (const w of wa) if (wb.has(w)) n++;
  return n / wa.size;
}

/** Resolves with `gate`, or rejects with the signal's reason as soon as it aborts. */
export function waitGate(gate: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return gate;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    gate.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      reject,
    );
  });
}

export class FakeEmbedder implements Embedder {
  readonly info = { id: 'fake-embedder', version: '1', backend: 'test' };
  readonly dimension = 64;
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    signal?.throwIfAborted();
    return texts.map((t) => {
      const v = new Float32Array(this.dimension);
      for (const w of words(t)) {
        let h = 0;
        for (let i = 0; i < w.length; i++) h = (h * 31 + w.charCodeAt(i)) >>> 0;
        v[h % this.dimension]! += 1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  }
}

export class FakePairScorer implements PairScorer {
  readonly info = { id: 'fake-scorer', version: '1', backend: 'test' };
  async score(pairs: ScoredPair[], signal?: AbortSignal): Promise<number[]> {
    signal?.throwIfAborted();
    return pairs.map((p) => overlap(p.query, p.passage));
  }
}

export class FakeEntailment implements EntailmentModel {
  readonly info = { id: 'fake-nli', version: '1', backend: 'test' };
  /** When set, every predict() waits for it. */
  gate: Promise<void> | undefined;
  calls = 0;
  /** Calls that returned (a call abandoned at the gate does not count). */
  finished = 0;
  async predict(pairs: EntailmentPair[], signal?: AbortSignal): Promise<EntailmentProbs[]> {
    this.calls++;
    if (this.gate) await waitGate(this.gate, signal);
    this.finished++;
    return pairs.map((p) => {
      const e = Math.min(0.95, overlap(p.hypothesis, p.premise));
      return { entailment: e, neutral: (1 - e) * 0.9, contradiction: (1 - e) * 0.1 };
    });
  }
}

export function fakeModels(): VerifierModels & { entailment: FakeEntailment } {
  return { embedder: new FakeEmbedder(), scorer: new FakePairScorer(), entailment: new FakeEntailment() };
}
