import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { UseTokenizer } from '../src/models/use/tokenizer.js';
import { loadUseWeights } from '../src/models/use/weights.js';
const texts: string[] = JSON.parse(readFileSync('src/models/use/fixtures/passages.json', 'utf8')).passages.map((p: any) => p.text);
const w = loadUseWeights();
const tok = new UseTokenizer(w.vocabulary);
const toks = texts.map((t) => tok.encode(t).slice(0, 128));
const model = readFileSync('/tmp/use/use.onnx');
const cfgs: { name: string; s: ort.InferenceSession; bs: number }[] = [];
for (const [spin, T, bs, arena] of [['1', 2, 16, true], ['0', 2, 16, true], ['0', 2, 8, true], ['1', 2, 8, true], ['0', 2, 32, true], ['0', 1, 16, true], ['0', 1, 8, true]] as const)
  cfgs.push({ name: `T${T} spin${spin} bs${bs} arena${arena}`, bs, s: await ort.InferenceSession.create(model, { intraOpNumThreads: T, enableCpuMemArena: arena, graphOptimizationLevel: 'all', extra: { session: { intra_op: { allow_spinning: spin } } } }) });
async function run(s: ort.InferenceSession, tk: number[][]) {
  const B = tk.length, L = Math.max(...tk.map((t) => t.length));
  const ids = new Int32Array(B * L), lens = new Int32Array(B), pw = new Float32Array(B * L);
  tk.forEach((t, b) => { ids.set(t, b * L); lens[b] = t.length; pw.fill(1 / t.length, b * L, b * L + t.length); });
  await s.run({ ids: new ort.Tensor('int32', ids, [B, L]), lengths: new ort.Tensor('int32', lens, [B]), poolw: new ort.Tensor('float32', pw, [B, 1, L]) });
}
const res: Record<string, number[]> = {}; const cpu: Record<string, number> = {};
const N = 64, ROUNDS = Number(process.env.ROUNDS ?? 12);
for (let r = 0; r < ROUNDS; r++) for (const c of cfgs) {
  const t = performance.now(); const c0 = process.cpuUsage();
  for (let i = 0; i < N; i += c.bs) await run(c.s, toks.slice(i, i + c.bs));
  const dt = performance.now() - t; const cu = process.cpuUsage(c0);
  (res[c.name] ??= []).push(N / dt * 1000); cpu[c.name] = (cpu[c.name] ?? 0) + (cu.user + cu.system) / 1000;
}
for (const c of cfgs) { const v = res[c.name].sort((a, b) => a - b); console.log(c.name.padEnd(28), 'best', v.at(-1)!.toFixed(0), 'median', v[v.length >> 1].toFixed(0), 'cpu ms/passage', (cpu[c.name] / (N * ROUNDS)).toFixed(1)); }
