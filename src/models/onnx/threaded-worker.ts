/**
 * Worker thread of a threaded ONNX model (threaded.ts): loads one NLI model or pair scorer (tokenizer and
 * onnxruntime session) and answers its requests one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxEntailmentModel, type OnnxEntailmentOptions } from './entailment.js';
import { OnnxPairScorer, type OnnxPairScorerOptions } from './pair-scorer.js';
import type { ThreadedInit } from './threaded.js';
import type { EntailmentPair, ScoredPair } from '../types.js';

const port = parentPort!;
const init = workerData as ThreadedInit;

try {
  const model = init.kind === 'nli' ? await OnnxEntailmentModel.load(init.spec, init.options as OnnxEntailmentOptions) : await OnnxPairScorer.load(init.spec, init.options as OnnxPairScorerOptions);
  port.on('message', async (m: { id: number; pairs: unknown[] }) => {
    try {
      const result = model instanceof OnnxEntailmentModel ? await model.predict(m.pairs as EntailmentPair[]) : await model.score(m.pairs as ScoredPair[]);
      port.postMessage({ id: m.id, result });
    } catch (e) {
      port.postMessage({ id: m.id, error: (e as Error).message });
    }
  });
  port.postMessage({ ready: true, info: model.info });
} catch (e) {
  const err = e as Error & { code?: string };
  port.postMessage({ error: err.message, name: err.name, ...(err.code ? { code: err.code } : {}) });
}
