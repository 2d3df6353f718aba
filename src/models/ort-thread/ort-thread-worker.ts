/**
 * Worker thread of OrtThreadSession (ort-thread.ts): holds one onnxruntime session and runs it on the
 * feeds it is sent, one message at a time, sending the outputs back transferred.
 */
import * as ort from 'onnxruntime-node';
import { parentPort, workerData } from 'node:worker_threads';
import type { OrtThreadInit, PlainTensor } from './ort-thread.js';

const port = parentPort!;
const { model, options } = workerData as OrtThreadInit;

try {
  const session = await ort.InferenceSession.create(model, options as ort.InferenceSession.SessionOptions);
  port.on('message', async (m: { id: number; feeds: Record<string, PlainTensor> }) => {
    try {
      const feeds = Object.fromEntries(Object.entries(m.feeds).map(([k, t]) => [k, new ort.Tensor(t.type, t.data, t.dims)]));
      const out = await session.run(feeds);
      const outputs: Record<string, PlainTensor> = {};
      for (const [k, t] of Object.entries(out)) outputs[k] = { type: t.type as PlainTensor['type'], data: t.data as PlainTensor['data'], dims: [...t.dims] };
      port.postMessage({ id: m.id, outputs }, [...new Set(Object.values(outputs).map((t) => t.data.buffer as ArrayBuffer))]);
    } catch (e) {
      port.postMessage({ id: m.id, error: (e as Error).message });
    }
  });
  port.postMessage({ ready: true });
} catch (e) {
  port.postMessage({ error: `onnxruntime could not create the session: ${(e as Error).message}` });
}
