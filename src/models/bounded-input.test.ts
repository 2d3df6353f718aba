import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { boundModelInput, maxCharsForTokens, MODEL_INPUT_MAX_CHARS } from './bounded-input.js';

test('short texts pass unchanged; long ones are cut at a word boundary below the bound', () => {
  assert.equal(boundModelInput('a short sentence.'), 'a short sentence.');
  const words = Array.from({ length: 10_000 }, (_, i) => `word${i}`).join(' ');
  const cut = boundModelInput(words);
  assert.ok(cut.length <= MODEL_INPUT_MAX_CHARS && cut.length > MODEL_INPUT_MAX_CHARS * 0.9);
  assert.ok(words.startsWith(cut) && words[cut.length] === ' ', 'ends at a whole word');
  assert.equal(boundModelInput('x'.repeat(50_000)).length, MODEL_INPUT_MAX_CHARS, 'no space: a hard cut');
  const emoji = 'a'.repeat(MODEL_INPUT_MAX_CHARS - 1) + '😀'.repeat(10);
  assert.equal(boundModelInput(emoji), 'a'.repeat(MODEL_INPUT_MAX_CHARS - 1), 'never half a surrogate pair');
});

/** ~1 MB of ordinary words: what a huge stored "sentence" hands the models. */
const HUGE = Array.from({ length: 150_000 }, (_, i) => ['cells', 'protein', 'binding', 'receptor'][i % 4]).join(' ');

test('the USE embedder never tokenises more than the bound, and its vector is that of the bounded text', async () => {
  const { createUseEmbedder } = await import('./use/index.js');
  const { UseTokenizer } = await import('./use/tokenizer.js');
  const seen: number[] = [];
  const original = UseTokenizer.prototype.encode;
  UseTokenizer.prototype.encode = function (this: InstanceType<typeof UseTokenizer>, text: string) {
    seen.push(text.length);
    return original.call(this, text);
  };
  try {
    const embedder = await createUseEmbedder();
    const [big, bounded] = await embedder.embed([HUGE, boundModelInput(HUGE)]);
    assert.ok(Math.max(...seen) <= MODEL_INPUT_MAX_CHARS, `tokeniser saw ${Math.max(...seen)} characters`);
    assert.deepEqual(big, bounded);
    await embedder.dispose?.();
  } finally {
    UseTokenizer.prototype.encode = original;
  }
});

test('the trained heads give their embedder and lexical features bounded texts', async () => {
  const { loadTrainedEvidenceScorer } = await import('./trained/evidence-scorer.js');
  const lengths: number[] = [];
  const embedder = {
    info: { id: 'recording-512d', version: '1', backend: 'test' },
    dimension: 512,
    async embed(texts: string[]) {
      for (const t of texts) lengths.push(t.length);
      return texts.map((t) => Float32Array.from({ length: 512 }, (_, i) => ((t.length + i) % 7) / 7));
    },
  };
  const scorer = await loadTrainedEvidenceScorer(embedder, undefined, { allowEmbedderMismatch: true });
  const [score] = await scorer.score([{ query: 'protein binding in cells', passage: HUGE }]);
  assert.ok(score! >= 0 && score! <= 1);
  assert.ok(Math.max(...lengths) <= MODEL_INPUT_MAX_CHARS, `embedder saw ${Math.max(...lengths)} characters`);
});

test('ONNX encoders never tokenise more than the bound for their max length', async () => {
  const { AutoTokenizer } = await import('@huggingface/transformers');
  const { InputEncoder } = await import('./onnx/encode.js');
  const { TempModels } = await import('./onnx/test-fixtures.js');
  const models = new TempModels();
  try {
    const tokenizer = await AutoTokenizer.from_pretrained(await models.build({ task: 'embedding' }), { local_files_only: true });
    const seen: number[] = [];
    const inner = tokenizer._tokenizer as unknown as { tokenize(text: string, o: unknown): string[] };
    const original = inner.tokenize.bind(inner);
    inner.tokenize = (text: string, o: unknown) => {
      seen.push(text.length);
      return original(text, o);
    };
    const enc = new InputEncoder(tokenizer, 64);
    const single = enc.encode(HUGE);
    const pair = enc.encode(HUGE, HUGE);
    assert.equal(single.ids.length, 64);
    assert.equal(pair.ids.length, 64);
    assert.ok(Math.max(...seen) <= maxCharsForTokens(64), `tokeniser saw ${Math.max(...seen)} characters`);
    assert.deepEqual(enc.encode(boundModelInput(HUGE, maxCharsForTokens(64))).ids, single.ids);
  } finally {
    await models.cleanup();
  }
});
