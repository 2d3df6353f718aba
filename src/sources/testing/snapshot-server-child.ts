/**
 * A server in a child process that reads cited sources from a snapshot folder (`veracite serve --sources DIR`),
 * through the composition root and the real audit service, with fake entailment (no model weights) and a
 * BM25-only index. Usage: snapshot-server-child.ts <index> <folder> <maxBytes>; prints one JSON line {"url": ...} when listening.
 */
import { Veracite } from '../../app/veracite.js';
import { closeOnSignals, startServer } from '../../server/start.js';
import { fakeModels } from '../../server/testing/fake-models.js';

const [index, folder, maxBytes] = process.argv.slice(2);
const models = fakeModels();
const vc = await Veracite.open({ index: { dir: index! }, retrieval: { mode: 'bm25' }, sources: { folder: folder!, maxBytes: Number(maxBytes) }, models: { scorer: 'lexical' } }, { models: { embedder: models.embedder, entailment: models.entailment } });
const server = await startServer({ port: 0 }, vc, {});
closeOnSignals(server, (line) => process.stderr.write(`${line}\n`));
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
