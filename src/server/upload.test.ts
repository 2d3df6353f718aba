/**
 * POST /v1/citations/check with an uploaded file (upload.ts): HTML, Markdown, text and PDF are read as
 * `veracite check --source FILE` reads them; the declared type must match the bytes, and size and type are
 * bounded (400 naming the field, never 500).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../util/package-root.js';
import { CitationViewSchema } from '../audit/citation-view.js';
import { MAX_UPLOAD_BYTES } from './upload.js';
import type { RunningServer } from './start.js';
import { fakeModels } from './testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from './testing/harness.js';

const PDF = join(packageRoot(), 'data', 'samples', 'documents', 'sources', 'pdf', 'seal-survey-2021.pdf');
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

describe('citation check with an uploaded file', () => {
  let ix: TestIndex;
  let server: RunningServer;
  before(async () => {
    ix = await makeTestIndex('veracite-upload-');
    server = await startTestServer(ix.index, fakeModels(), { dataDir: join(ix.root, 'data') });
  });
  after(async () => {
    await server?.close();
    await ix?.cleanup();
  });

  const check = (file: Record<string, unknown>, claim = 'Grey seals haul out on the north coast of Cornwall.') => postJson(`${server.url}/v1/citations/check`, { claim, source: { file }, suggestions: 0 });

  it('reads HTML (main text, not the page furniture), Markdown and plain text by their declared type', async () => {
    const html = '<html><head><title>Seals</title></head><body><nav>Home | About</nav><article><h1>Seals</h1><p>Grey seals haul out on the north coast of Cornwall every autumn.</p><p>Pups are born between September and December.</p></article></body></html>';
    for (const [type, body] of [['text/html', html], ['text/markdown', '# Seals\n\nGrey seals haul out on the north coast of Cornwall every autumn.\n'], ['text/plain', 'Grey seals haul out on the north coast of Cornwall every autumn.']] as const) {
      const res = await check({ name: 'page', type, base64: b64(body) });
      assert.equal(res.status, 200, `${type}: ${await res.clone().text()}`);
      const view = CitationViewSchema.parse(await res.json());
      assert.equal(view.sourceStatus, 'found', type);
      assert.ok(view.existing!.sentences.some((s) => /Grey seals haul out/.test(s.text)), type);
      assert.ok(!view.existing!.sentences.some((s) => /<p>|Home \| About/.test(s.text)), `${type}: no markup or navigation read as text`);
    }
  });

  it('reads a PDF page by page', async () => {
    const res = await check({ name: 'seal-survey-2021.pdf', type: 'application/pdf', base64: (await readFile(PDF)).toString('base64') }, 'The survey covered eleven haul-out sites between Newquay and Cape Cornwall.');
    assert.equal(res.status, 200, await res.clone().text());
    const view = CitationViewSchema.parse(await res.json());
    assert.equal(view.sourceStatus, 'found');
    assert.ok(view.existing!.sentences.some((s) => s.evidence && /eleven haul-out sites/.test(s.text)));
  });

  it('refuses a declared type that does not match the bytes, binary data, unknown types and oversized files (400, naming the field)', async () => {
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [{ name: 'x.pdf', type: 'application/pdf', base64: b64('just text') }, /sent as a PDF but is not one/, 'source.file'],
      [{ name: 'y.txt', type: 'text/plain', base64: (await readFile(PDF)).toString('base64') }, /is a PDF: send it as application\/pdf/, 'source.file'],
      [{ name: 'z.txt', type: 'text/plain', base64: b64(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0xff, 0xfe, 0])) }, /not text/, 'source.file'],
      [{ name: 'i.png', type: 'image/png', base64: b64('x') }, /./, 'source.file.type'],
      [{ name: 'big.txt', type: 'text/plain', base64: 'A'.repeat(Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 4) }, /larger than 1 MiB/, 'source.file.base64'],
      [{ name: 'bad', type: 'text/plain', base64: 'not base64!' }, /not base64/, 'source.file.base64'],
    ];
    for (const [file, message, path] of cases) {
      const res = await check(file);
      const body = (await res.json()) as { error: string; message: string; issues?: { path: string; message: string }[] };
      assert.ok(res.status === 400 || res.status === 413, `${String(file.name)}: ${res.status} ${JSON.stringify(body)}`);
      if (res.status === 413) continue; // over the body limit before validation
      const issue = body.issues?.find((i) => i.path === path);
      assert.ok(issue, `${String(file.name)}: an issue at ${path}: ${JSON.stringify(body.issues)}`);
      assert.match(issue.message, message, String(file.name));
    }
  });
});
