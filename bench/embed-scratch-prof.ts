import { readFileSync, readdirSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { UseTokenizer } from '../src/models/use/tokenizer.js';
import { loadUseWeights } from '../src/models/use/weights.js';
const texts: string[] = JSON.parse(readFileSync('/tmp/use/passages.json', 'utf8')).map((p: any) => p.text);
const w = loadUseWeights();
const threads = Number(process.env.T ?? 1);
const sess = await ort.InferenceSession.create(readFileSync(process.env.M ?? '/tmp/use/use.onnx'), { intraOpNumThreads: threads, graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: '/tmp/use/prof', optimizedModelFilePath: '/tmp/use/opt.onnx' });
const tok = new UseTokenizer(w.vocabulary);
const bs = 32;
for (let i = 0; i < 128; i += bs) {
  const toks = texts.slice(i, i + bs).map((t) => tok.encode(t).slice(0, 128));
  const B = toks.length, L = Math.max(...toks.map((t) => t.length));
  const ids = new Int32Array(B * L), lens = new Int32Array(B), pw = new Float32Array(B * L);
  toks.forEach((t, b) => { ids.set(t, b * L); lens[b] = t.length; for (let k = 0; k < t.length; k++) pw[b * L + k] = 1 / t.length; });
  await sess.run({ ids: new ort.Tensor('int32', ids, [B, L]), lengths: new ort.Tensor('int32', lens, [B]), poolw: new ort.Tensor('float32', pw, [B, 1, L]) });
}
const f = sess.endProfiling();
console.log(f);
