import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { buildUseOnnx } from '../src/models/use/onnx-graph.js';
import { UseTokenizer } from '../src/models/use/tokenizer.js';
import { loadUseWeights } from '../src/models/use/weights.js';
const texts: string[] = JSON.parse(readFileSync('/tmp/use/passages.json', 'utf8')).map((p: any) => p.text);
let t0 = performance.now();
const w = loadUseWeights();
const bytes = buildUseOnnx(w);
console.log('build ms', performance.now() - t0, bytes.length);
writeFileSync('/tmp/use/use.onnx', bytes);
t0 = performance.now();
const threads = Number(process.env.T ?? 2);
const sess = await ort.InferenceSession.create(bytes, { intraOpNumThreads: threads, graphOptimizationLevel: 'all' });
console.log('session ms', performance.now() - t0);
const tok = new UseTokenizer(w.vocabulary);
async function embed(batch: string[]): Promise<Float32Array[]> {
  const toks = batch.map((t) => tok.encode(t).slice(0, 128));
  const B = batch.length, L = Math.max(...toks.map((t) => t.length));
  const ids = new Int32Array(B * L), lens = new Int32Array(B), pw = new Float32Array(B * L);
  toks.forEach((t, b) => { ids.set(t, b * L); lens[b] = t.length; for (let i = 0; i < t.length; i++) pw[b * L + i] = 1 / t.length; });
  const out = await sess.run({ ids: new ort.Tensor('int32', ids, [B, L]), lengths: new ort.Tensor('int32', lens, [B]), poolw: new ort.Tensor('float32', pw, [B, 1, L]) });
  const e = out.embedding.data as Float32Array;
  const res: Float32Array[] = [];
  for (let b = 0; b < B; b++) { const v = e.slice(b * 512, b * 512 + 512); let s = 0; for (const x of v) s += x * x; s = Math.sqrt(s); for (let i = 0; i < 512; i++) v[i] /= s; res.push(v); }
  return res;
}
const bs = Number(process.env.BS ?? 32);
const fast: Float32Array[] = [];
await embed(texts.slice(0, bs));
t0 = performance.now();
for (let i = 0; i < texts.length; i += bs) fast.push(...(await embed(texts.slice(i, i + bs))));
const dt = performance.now() - t0;
console.log(`threads=${threads} bs=${bs}: ${(texts.length / dt * 1000).toFixed(1)} passages/s rss ${(process.memoryUsage().rss / 1e6).toFixed(0)}MB`);
if (existsSync('/tmp/use/ref.json')) {
  const ref: number[][] = JSON.parse(readFileSync('/tmp/use/ref.json', 'utf8'));
  let min = 1; for (let i = 0; i < ref.length; i++) { let d = 0; for (let k = 0; k < 512; k++) d += ref[i][k] * fast[i][k]; min = Math.min(min, d); }
  console.log('min cosine vs ref', min);
}
