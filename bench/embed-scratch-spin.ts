import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { UseTokenizer } from '../src/models/use/tokenizer.js';
import { loadUseWeights } from '../src/models/use/weights.js';
const texts: string[] = JSON.parse(readFileSync('src/models/use/fixtures/passages.json', 'utf8')).passages.map((p: any) => p.text);
const w = loadUseWeights();
const tok = new UseTokenizer(w.vocabulary);
const model = readFileSync('/tmp/use/use.onnx');
const sessions: Record<string, ort.InferenceSession> = {};
for (const spin of ['1', '0']) for (const T of [1, 2]) sessions[`T${T}-spin${spin}`] = await ort.InferenceSession.create(model, { intraOpNumThreads: T, graphOptimizationLevel: 'all', extra: { session: { intra_op: { allow_spinning: spin } } } });
const bs = Number(process.env.BS ?? 32);
async function run(s: ort.InferenceSession, batch: string[]) {
  const toks = batch.map((t) => tok.encode(t).slice(0, 128));
  const B = toks.length, L = Math.max(...toks.map((t) => t.length));
  const ids = new Int32Array(B * L), lens = new Int32Array(B), pw = new Float32Array(B * L);
  toks.forEach((t, b) => { ids.set(t, b * L); lens[b] = t.length; pw.fill(1 / t.length, b * L, b * L + t.length); });
  await s.run({ ids: new ort.Tensor('int32', ids, [B, L]), lengths: new ort.Tensor('int32', lens, [B]), poolw: new ort.Tensor('float32', pw, [B, 1, L]) });
}
const res: Record<string, number[]> = {};
for (let rep = 0; rep < 8; rep++) for (const [k, s] of Object.entries(sessions)) {
  const t = performance.now(); const c = process.cpuUsage();
  for (let i = 0; i < 128; i += bs) await run(s, texts.slice(i, i + bs));
  const dt = performance.now() - t; const cu = process.cpuUsage(c);
  (res[k] ??= []).push(Math.round(128 / dt * 1000));
  if (rep === 7) console.log(k, res[k].join(' '), 'cpu ms/passage', ((cu.user + cu.system) / 1000 / 128).toFixed(1), 'load', os().toFixed(2));
}
import { loadavg } from 'node:os';
function os() { return loadavg()[0]; }
