// Loads an exported folder with onnxruntime-node (and the tokenizer with @huggingface/transformers), offline, and
// prints the outputs for fixed inputs, to compare with Python's (export-report.json / check_python).
//   node scripts/model/check_node.mjs models/verifier          # cross-encoder: text = claim, text_pair = evidence
//   node scripts/model/check_node.mjs models/embedder          # embedder: mean pooling + L2 by the caller
import path from 'node:path';
import ort from 'onnxruntime-node';
import { AutoTokenizer, env } from '@huggingface/transformers';

const dir = path.resolve(process.argv[2] ?? 'models/verifier');
const file = process.argv[3] ?? 'onnx/model_quantized.onnx';
env.allowRemoteModels = false;
env.localModelPath = path.dirname(dir);
const tok = await AutoTokenizer.from_pretrained(path.basename(dir));
const session = await ort.InferenceSession.create(path.join(dir, file), { executionProviders: ['cpu'] });
const PAIRS = [
  ['Vitamin D supplementation increases bone density.', 'In this trial, vitamin D supplementation raised bone mineral density by 2% over placebo.'],
  ['Vitamin D supplementation decreases bone density.', 'In this trial, vitamin D supplementation raised bone mineral density by 2% over placebo.'],
  ['A man is sleeping.', 'A man is playing a guitar on stage.'],
  ['Two dogs run in a field.', 'Two dogs are running through a grassy field.'],
];
const isVerifier = session.outputNames.includes('logits');
const enc = isVerifier
  ? tok(PAIRS.map((p) => p[0]), { text_pair: PAIRS.map((p) => p[1]), padding: true, truncation: true, max_length: 256 })
  : tok(PAIRS.map((p) => p[1]), { padding: true, truncation: true, max_length: 256 });
const feeds = {};
for (const name of session.inputNames) feeds[name] = new ort.Tensor('int64', enc[name].data, enc[name].dims);
const out = await session.run(feeds);
console.log(JSON.stringify({ inputs: session.inputNames, outputs: session.outputNames }));
if (isVerifier) {
  const l = out.logits;
  const [n, k] = l.dims;
  for (let i = 0; i < n; i++) {
    const row = Array.from(l.data.slice(i * k, (i + 1) * k));
    const m = Math.max(...row);
    const e = row.map((x) => Math.exp(x - m));
    const s = e.reduce((a, b) => a + b, 0);
    console.log(JSON.stringify({ pair: i, probs: e.map((x) => +(x / s).toFixed(3)) }));
  }
} else {
  const h = out.last_hidden_state;
  const [n, seq, dim] = h.dims;
  const mask = enc.attention_mask.data;
  const vecs = [];
  for (let i = 0; i < n; i++) {
    const v = new Float64Array(dim);
    let c = 0;
    for (let t = 0; t < seq; t++) {
      if (mask[i * seq + t] === 0n) continue;
      c++;
      for (let d = 0; d < dim; d++) v[d] += h.data[(i * seq + t) * dim + d];
    }
    const norm = Math.hypot(...v.map((x) => x / c));
    vecs.push(Array.from(v, (x) => x / c / norm));
  }
  const cos = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
  console.log(JSON.stringify({ dims: h.dims, cos01: +cos(vecs[0], vecs[1]).toFixed(4), cos23: +cos(vecs[2], vecs[3]).toFixed(4), cos03: +cos(vecs[0], vecs[3]).toFixed(4), first5: vecs[0].slice(0, 5).map((x) => +x.toFixed(5)) }));
}
