/**
 * The retrieval embedder as a user meets it (issue 43): the shipped all-MiniLM-L6-v2 is the default; an index
 * whose vectors USE-lite made (the embedder before) says so and is searched with USE-lite; a named embedder
 * that is not the index's is refused; `index --dense` re-embeds such an index, and the vectors of one model
 * are never mixed with another's. Each step is the CLI in its own process.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';
import { TempModels } from '../src/models/onnx/test-fixtures.js';

function veracite(args: string[]) {
  const r = spawnSync(process.execPath, [...cliEntryArgs(), ...args], { encoding: 'utf8', timeout: 180_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface SearchJson {
  mode: string;
  embedder?: string;
  documents: { docId: string }[];
}

const QUERY = 'vitamin D deficiency and bone fractures';
const NOTICE = /note: this index's vectors were made by USE-lite, the embedder before all-MiniLM-L6-v2; dense and hybrid queries use USE-lite.*veracite index --dense --index/;

describe('the retrieval embedder: MiniLM by default, an old index told and re-embedded, never mixed', () => {
  let dir: string;
  let corpus: string;
  const models = new TempModels();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-embedder-'));
    corpus = join(dir, 'c.jsonl');
    const lines = (await readFile('data/samples/scifact/corpus.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 30);
    await writeFile(corpus, lines.join('\n') + '\n');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await models.cleanup();
  });

  it('index --dense records the shipped all-MiniLM-L6-v2 by the SHA-256 of its weights file, and hybrid search reads it', async () => {
    const idx = join(dir, 'minilm');
    const r = veracite(['index', corpus, '--dense', '--index', idx, '--quiet']);
    assert.equal(r.code, 0, r.err);
    const manifest = JSON.parse(await readFile(join(idx, 'veracite.json'), 'utf8')) as { settings: { embedder: { id: string; version: string; file: string } } };
    const sha = createHash('sha256').update(await readFile('models/embedder/onnx/model_quantized.onnx')).digest('hex');
    assert.equal(manifest.settings.embedder.id, 'all-MiniLM-L6-v2');
    assert.equal(manifest.settings.embedder.version, `sha256:${sha.slice(0, 16)}`);
    assert.equal(manifest.settings.embedder.file, 'onnx/model_quantized.onnx');
    const s = veracite(['search', QUERY, '--index', idx, '-k', '3', '--json']);
    assert.equal(s.code, 0, s.err);
    const out = JSON.parse(s.out) as SearchJson;
    assert.deepEqual([out.mode, out.embedder, out.documents.length], ['hybrid', 'all-MiniLM-L6-v2', 3]);
    assert.doesNotMatch(s.err, /note:/, 'no notice on an index of the default embedder');
    // BM25's weight in hybrid fusion is the embedder's (chosen on SciFact train), unless given.
    assert.match(veracite(['search', QUERY, '--index', idx, '-k', '1']).out, /\[score\]: 0\.6 x BM25 \+ 0\.4 x cosine/);
    assert.match(veracite(['search', QUERY, '--index', idx, '-k', '1', '--sparse-weight', '0.3']).out, /\[score\]: 0\.3 x BM25 \+ 0\.7 x cosine/);
  });

  it('an index of USE-lite vectors: searched with USE-lite and a notice; another named embedder refused; index --dense re-embeds it', () => {
    const idx = join(dir, 'use');
    assert.equal(veracite(['index', corpus, '--dense', '--embedder', 'use', '--index', idx, '--quiet']).code, 0);
    const bm25Before = JSON.parse(veracite(['search', QUERY, '--index', idx, '--mode', 'bm25', '-k', '5', '--json']).out) as SearchJson;

    const old = veracite(['search', QUERY, '--index', idx, '-k', '3', '--json']);
    assert.equal(old.code, 0, old.err);
    const o = JSON.parse(old.out) as SearchJson;
    assert.equal(o.mode, 'hybrid');
    assert.match(o.embedder ?? '', /^use-lite-512@/, 'queries are embedded by the model that made the vectors');
    assert.match(old.err, NOTICE);
    assert.equal(old.err.match(/note: this index's vectors/g)?.length, 1, 'the notice is given once');
    assert.match(veracite(['search', QUERY, '--index', idx, '-k', '1']).out, /\[score\]: 0\.8 x BM25 \+ 0\.2 x cosine/, "USE-lite's own weight");

    const named = veracite(['search', QUERY, '--index', idx, '--embedder', 'minilm', '-k', '3']);
    assert.notEqual(named.code, 0);
    assert.match(named.err, /--embedder: the index's vectors were made by USE-lite \(Universal Sentence Encoder lite\), not all-MiniLM-L6-v2 .*Drop the flag \(or give --embedder use\).*veracite index --dense --embedder minilm --index/);
    const adding = veracite(['index', corpus, '--dense', '--embedder', 'minilm', '--index', idx, '--quiet']);
    assert.notEqual(adding.code, 0, 'new passages are not embedded by another model than the index holds');
    assert.match(adding.err, /vectors were made by USE-lite/);

    const re = veracite(['index', '--dense', '--index', idx]);
    assert.equal(re.code, 0, re.err);
    assert.match(re.err, /re-embedding all \d+ passages with all-MiniLM-L6-v2 \(its vectors were made by USE-lite/);
    const after = veracite(['search', QUERY, '--index', idx, '-k', '3', '--json']);
    assert.equal(after.code, 0, after.err);
    assert.equal((JSON.parse(after.out) as SearchJson).embedder, 'all-MiniLM-L6-v2');
    assert.doesNotMatch(after.err, /note:/);
    const bm25After = JSON.parse(veracite(['search', QUERY, '--index', idx, '--mode', 'bm25', '-k', '5', '--json']).out) as SearchJson;
    assert.deepEqual(bm25After.documents.map((d) => d.docId), bm25Before.documents.map((d) => d.docId), 'BM25 is untouched by re-embedding');
    const again = JSON.parse(veracite(['index', '--dense', '--index', idx, '--quiet', '--json']).out) as { embedded: number; reembedded?: boolean };
    assert.deepEqual([again.embedded, again.reembedded], [0, undefined], 'a second run has nothing to do');
  });

  it("another model's vectors: index --dense alone is refused naming it; named, it adds the missing vectors; --embedder minilm re-embeds", async () => {
    const tiny = await models.build({ task: 'embedding', quantized: true, seed: 3 }, 'tiny-embedder');
    const idx = join(dir, 'tiny');
    assert.equal(veracite(['index', corpus, '--dense', '--embedder', tiny, '--index', idx, '--quiet']).code, 0);
    const alone = veracite(['index', '--dense', '--index', idx]);
    assert.notEqual(alone.code, 0);
    assert.match(alone.err, /vectors were made by tiny-embedder \(sha256:[0-9a-f]{12}\); name it with --embedder <its folder or hub id> to add the missing vectors, or give --embedder minilm to re-embed/);
    const search = veracite(['search', QUERY, '--index', idx, '-k', '2']);
    assert.notEqual(search.code, 0, 'the default embedder does not search another model\'s vectors');
    assert.match(search.err, /Name the embedder that made them/);
    const same = JSON.parse(veracite(['index', '--dense', '--embedder', tiny, '--index', idx, '--quiet', '--json']).out) as { embedded: number; reembedded?: boolean };
    assert.deepEqual([same.embedded, same.reembedded], [0, undefined]);
    const re = JSON.parse(veracite(['index', '--dense', '--embedder', 'minilm', '--index', idx, '--quiet', '--json']).out) as { embedded: number; reembedded?: boolean };
    assert.equal(re.reembedded, true);
    assert.ok(re.embedded > 30, `every passage re-embedded (${re.embedded})`);
    const s = veracite(['search', QUERY, '--index', idx, '-k', '2', '--json']);
    assert.equal(s.code, 0, s.err);
    assert.equal((JSON.parse(s.out) as SearchJson).embedder, 'all-MiniLM-L6-v2');
  });
});
