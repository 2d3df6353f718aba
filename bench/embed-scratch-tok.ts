import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { UseTokenizer } from '../src/models/use/tokenizer.js';
import { loadUseWeights } from '../src/models/use/weights.js';
const req = createRequire(import.meta.url);
const emb = req('@energetic-ai/embeddings');
let t0 = performance.now();
const w = loadUseWeights();
console.log('load weights ms', performance.now() - t0, w.version, w.vocabulary.filter(v=>v[0].length===0).length);
const orig = new emb.EmbeddingsModel({ vocabulary: w.vocabulary, model: null });
const fast = new UseTokenizer(w.vocabulary);
const lines = readFileSync('/work/shared/data/scifact/corpus.jsonl', 'utf8').trim().split('\n');
const texts: string[] = [];
for (const l of lines) { const d = JSON.parse(l); texts.push(d.abstract.join(' ')); texts.push(d.title); }
texts.push('', ' ', '  ', 'a', '\t\nx', '😀 emoji 😀😀 ok', 'ǅ ﬁ ①', 'ÀÉÎ naïve café', '中文字符测试', 'x'.repeat(3000), '\u0000\uffff', 'The quick brown fox', '   leading and trailing   ', '🙂', '‑—–', 'Ω≈ç√∫˜µ≤≥÷', 'undefined constructor __proto__ toString');
let bad = 0;
for (const t of texts) { const a = orig.tokenizer.encode(t); const b = fast.encode(t); if (a.length !== b.length || a.some((x: number, i: number) => x !== b[i])) { bad++; if (bad < 5) console.log('MISMATCH', JSON.stringify(t.slice(0, 80)), a.slice(0, 20), b.slice(0, 20)); } }
console.log('texts', texts.length, 'mismatches', bad);
const sample = texts.filter((_, i) => i % 2 === 0).slice(0, 500);
t0 = performance.now(); for (const t of sample) orig.tokenizer.encode(t); const to = performance.now() - t0;
t0 = performance.now(); for (const t of sample) fast.encode(t); const tf = performance.now() - t0;
console.log('orig ms/abstract', to / sample.length, 'fast ms/abstract', tf / sample.length);
