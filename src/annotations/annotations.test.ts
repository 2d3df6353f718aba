/**
 * Annotations: durable JSONL storage (torn tails, bad lines), blind pair ids, training pairs, and the
 * round trip through the API across a restart, exported by HTTP and by `veracite annotations export`.
 */
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import { registerServeCommand } from '../cli/command-serve.js';
import { CON, ENT, NEU } from '../learn/heads/data.js';
import { label } from '../learn/heads/softmax-regression.js';
import { ComparisonResponse } from '../server/schemas.js';
import type { RunningServer } from '../server/start.js';
import { FakeAuditService } from '../server/testing/fake-audit.js';
import { fakeModels } from '../server/testing/fake-models.js';
import { makeTestIndex, postJson, readSse, startTestServer, type TestIndex } from '../server/testing/harness.js';
import { auditArticle } from '../server/testing/sample-index.js';
import { AnnotationStore, annotationsPath, exportLines, readAnnotations } from './annotation-store.js';
import { decodePairId, encodePairId, preferredRole } from './blind-pair.js';
import { annotationToPairs, loadAnnotationTrainingData, toEvidencePairs, toNliPairs } from '../learn/annotation-pairs.js';
import { AnnotationSchema, type Annotation } from './types.js';

let tmp: string;
before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'veracite-annotations-'));
});
after(async () => rm(tmp, { recursive: true, force: true }));

function annotation(i: number, choice: Annotation['choice'] = 'A'): Annotation {
  const side = (role: 'existing' | 'suggestion', text: string) => ({ role, title: `${role} ${i}`, text: `${text} More text.`, evidence: [text] });
  return {
    id: `a${i}`,
    createdAt: new Date(0).toISOString(),
    kind: 'blind-pair',
    jobId: 'job',
    citationId: `Article#${i}`,
    claim: `Claim ${i}.`,
    context: [],
    a: side('suggestion', `Suggested evidence ${i}.`),
    b: side('existing', `Existing evidence ${i}.`),
    choice,
    preferred: choice === 'neither' ? 'neither' : choice === 'A' ? 'suggestion' : 'existing',
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('AnnotationStore', () => {
  it('appends durably and reads back after reopening', async () => {
    const dir = join(tmp, 'store-1');
    const s = await AnnotationStore.open(dir);
    await Promise.all([s.append(annotation(1)), s.append(annotation(2, 'neither'))]);
    assert.ok(s.has('job', 'Article#1'));
    await s.close();
    const again = await AnnotationStore.open(dir);
    assert.equal(again.count, 2);
    assert.deepEqual((await collect(again.lines())).map((l) => (JSON.parse(l) as Annotation).id), ['a1', 'a2']);
    await again.close();
  });

  it('drops a torn last line, keeps a complete one that lacks its newline', async () => {
    const dir = join(tmp, 'store-2');
    const s = await AnnotationStore.open(dir);
    await s.append(annotation(1));
    await s.close();
    const path = annotationsPath(dir);
    await appendFile(path, JSON.stringify(annotation(2)).slice(0, 40)); // a crash mid-write
    let reopened = await AnnotationStore.open(dir);
    assert.equal(reopened.count, 1);
    await reopened.append(annotation(3));
    await reopened.close();
    assert.deepEqual((await collect(readAnnotations(path))).map((a) => a.id), ['a1', 'a3']);

    await appendFile(path, JSON.stringify(annotation(4))); // complete, no newline
    reopened = await AnnotationStore.open(dir);
    assert.equal(reopened.count, 3);
    await reopened.close();
    assert.ok((await readFile(path, 'utf8')).endsWith('}\n'));
  });

  it('export skips (and reports) a bad line instead of failing', async () => {
    const path = join(tmp, 'bad.jsonl');
    await writeFile(path, `${JSON.stringify(annotation(1))}\n{"not": "an annotation"}\n${JSON.stringify(annotation(2))}\n`);
    const bad: number[] = [];
    const lines = await collect(exportLines(path, undefined, (n) => bad.push(n)));
    assert.equal(lines.length, 2);
    assert.deepEqual(bad, [2]);
    assert.deepEqual(await collect(exportLines(join(tmp, 'missing.jsonl'))), []);
  });
});

describe('blind pairs and training pairs', () => {
  it('pair ids round-trip and resolve the chosen role', () => {
    const ref = { jobId: 'j', citationId: 'T#3', suggestion: 0, aRole: 'suggestion' as const };
    assert.deepEqual(decodePairId(encodePairId(ref)), ref);
    assert.equal(decodePairId('garbage!'), undefined);
    assert.equal(decodePairId(Buffer.from('[1,2]').toString('base64url')), undefined);
    assert.equal(preferredRole('A', ref), 'suggestion');
    assert.equal(preferredRole('B', ref), 'existing');
    assert.equal(preferredRole('neither', ref), 'neither');
  });

  it('A/B -> one "supports" pair (the chosen evidence); neither -> two "not-supports" pairs', () => {
    const [p] = annotationToPairs(annotation(1, 'A'));
    assert.deepEqual(p, { claim: 'Claim 1.', passage: 'Suggested evidence 1.', label: 'supports', group: 'annotation:job:Article#1', annotationId: 'a1' });
    assert.equal(annotationToPairs(annotation(1, 'B'))[0]!.passage, 'Existing evidence 1.');
    assert.equal(annotationToPairs(annotation(1, 'B'), { unchosenAsNegative: true })[1]!.label, 'not-supports');
    const neither = annotationToPairs(annotation(2, 'neither'));
    assert.deepEqual(neither.map((x) => x.label), ['not-supports', 'not-supports']);
    // the trainer's formats
    const nli = toNliPairs([...annotationToPairs(annotation(1)), ...neither]);
    assert.deepEqual(nli.map((x) => x.y), [label(ENT), label(NEU) | label(CON), label(NEU) | label(CON)]);
    assert.equal(nli[0]!.hypothesis, 'Claim 1.');
    const ev = toEvidencePairs(annotationToPairs(annotation(1)));
    assert.deepEqual(ev[0], { claim: 'Claim 1.', sentence: 'Suggested evidence 1.', evidence: true, group: 'annotation:job:Article#1', cited: true });
  });
});

describe('annotation round trip through the API', () => {
  let ix: TestIndex;
  before(async () => {
    ix = await makeTestIndex();
  });
  after(async () => ix.cleanup());

  const start = (dataDir: string): Promise<RunningServer> => startTestServer(ix.index, fakeModels(), { dataDir }, () => new FakeAuditService(1));

  it('annotate "A", restart, the export (HTTP and CLI) has it; answered pairs are not offered again', async () => {
    const dataDir = join(ix.root, 'server-data');
    const s1 = await start(dataDir);
    const art = auditArticle(4);
    const job = (await (await postJson(`${s1.url}/v1/audits`, { wikitext: art.wikitext, title: art.title })).json()) as { id: string; links: { events: string } };
    await readSse(`${s1.url}${job.links.events}`);

    const res = await fetch(`${s1.url}/v1/comparisons/next?job=${job.id}`);
    assert.equal(res.status, 200);
    const pair = ComparisonResponse.parse(await res.json());
    assert.equal(pair.remaining, 4);
    assert.ok(!JSON.stringify(pair).includes('existing-') && !JSON.stringify(pair).includes('suggested-'), 'no doc ids or roles on the page');
    const bad = await postJson(`${s1.url}/v1/annotations`, { pairId: 'nonsense', choice: 'A' });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { issues: { path: string }[] }).issues[0]!.path, 'pairId');
    const created = await postJson(`${s1.url}/v1/annotations`, { pairId: pair.pairId, choice: 'A', annotator: 'test' });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const next = ComparisonResponse.parse(await (await fetch(`${s1.url}/v1/comparisons/next?job=${job.id}`)).json());
    assert.equal(next.remaining, 3);
    assert.notEqual(next.claim, pair.claim);
    await s1.close();

    const s2 = await start(dataDir);
    try {
      const exp = await fetch(`${s2.url}/v1/annotations.jsonl`);
      assert.equal(exp.status, 200);
      assert.match(exp.headers.get('content-type') ?? '', /application\/x-ndjson/);
      const lines = (await exp.text()).trim().split('\n').map((l) => AnnotationSchema.parse(JSON.parse(l)));
      assert.equal(lines.length, 1);
      const a = lines[0]!;
      assert.deepEqual([a.id, a.choice, a.jobId, a.claim, a.annotator], [id, 'A', job.id, pair.claim, 'test']);
      assert.equal(a.preferred, a.a.role, 'A was chosen: the preferred role is the one shown as A');
      assert.equal(a.a.text, pair.a.sentences.map((s) => s.text).join(' '), 'the stored side is the one shown as A');
      assert.equal(ComparisonResponse.parse(await (await fetch(`${s2.url}/v1/comparisons/next?job=${job.id}`)).json()).remaining, 3);
    } finally {
      await s2.close();
    }

    // the CLI export, as JSONL and as training pairs
    const out = join(ix.root, 'export.jsonl');
    const program = new Command().exitOverride();
    registerServeCommand(program);
    await program.parseAsync(['node', 'veracite', 'annotations', 'export', '--index', ix.index, '--data-dir', dataDir, '--out', out]);
    assert.equal(JSON.parse((await readFile(out, 'utf8')).trim()).id, id);
    const training = await loadAnnotationTrainingData(out);
    assert.equal(training.pairs.length, 1);
    assert.equal(training.evidence[0]!.evidence, true);
    const pairsOut = join(ix.root, 'pairs.jsonl');
    await program.parseAsync(['node', 'veracite', 'annotations', 'export', '--index', ix.index, '--data-dir', dataDir, '--out', pairsOut, '--as', 'pairs']);
    assert.equal((JSON.parse((await readFile(pairsOut, 'utf8')).trim()) as { label: string }).label, 'supports');
  });

  it('204 when nothing is left to compare', async () => {
    const s = await start(join(ix.root, 'empty-data'));
    try {
      assert.equal((await fetch(`${s.url}/v1/comparisons/next`)).status, 204);
    } finally {
      await s.close();
    }
  });
});
