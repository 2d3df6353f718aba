import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
const model = readFileSync('/tmp/use/use.onnx');
for (const spin of ['1', '0']) {
  const s = await ort.InferenceSession.create(model, { intraOpNumThreads: 2, graphOptimizationLevel: 'all', extra: { session: { intra_op: { allow_spinning: spin } } } });
  const feeds = { ids: new ort.Tensor('int32', new Int32Array(8).fill(50), [1, 8]), lengths: new ort.Tensor('int32', Int32Array.from([8]), [1]), poolw: new ort.Tensor('float32', new Float32Array(8).fill(1 / 8), [1, 1, 8]) };
  await s.run(feeds);
  const t = performance.now(); const c = process.cpuUsage();
  for (let i = 0; i < 300; i++) { await s.run(feeds); await new Promise((r) => setTimeout(r, 1)); }
  const dt = performance.now() - t; const cu = process.cpuUsage(c);
  console.log(`spin=${spin} wall ${dt.toFixed(0)}ms cpu ${((cu.user + cu.system) / 1000).toFixed(0)}ms`);
  await s.release();
}
