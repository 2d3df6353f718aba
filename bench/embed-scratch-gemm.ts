import * as ort from 'onnxruntime-node';
import { encodeModel, DT_FLOAT } from '../src/models/use/onnx-proto-writer.js';
const M = 4096, K = 512, N = 1536;
const w = new Float32Array(K * N).map(() => Math.random() - 0.5);
const bytes = encodeModel({ nodes: [{ op: 'MatMul', inputs: ['x', 'w'], outputs: ['y'] }], initializers: [{ name: 'w', dims: [K, N], dataType: DT_FLOAT, data: w }], inputs: [{ name: 'x', elemType: DT_FLOAT, shape: ['M', K] }], outputs: [{ name: 'y', elemType: DT_FLOAT, shape: ['M', N] }], opsets: { '': 17 } });
for (const T of [1, 2]) {
  const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: T });
  const x = new ort.Tensor('float32', new Float32Array(M * K).map(() => Math.random()), [M, K]);
  await s.run({ x });
  const times: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < 20; i++) { const t = performance.now(); await s.run({ x }); times.push(performance.now() - t); }
  const cu = process.cpuUsage(c0);
  times.sort((a, b) => a - b);
  const fl = 2 * M * K * N / 1e9;
  console.log(`T=${T} best ${(fl / times[0] * 1000).toFixed(1)} GFLOP/s median ${(fl / times[10] * 1000).toFixed(1)} GFLOP/s; cpu-time GFLOP/s per core ${(fl * 20 / ((cu.user + cu.system) / 1e6)).toFixed(1)}`);
}
