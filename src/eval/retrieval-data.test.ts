import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordError } from '../corpus/types.js';
import { beirTask, readQrels, readQueries, scifactTask, wiceTask, writeBeirFiles } from './retrieval-data.js';

const DATA = '/work/shared/data';
const tmp = () => mkdtemp(join(tmpdir(), 'veracite-eval-'));

async function file(dir: string, name: string, text: string): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, text, 'utf8');
  return p;
}

test('readQueries: id/text aliases, claim-in-context fields, extra kept', async () => {
  const dir = await tmp();
  const p = await file(
    dir,
    'q.jsonl',
    [
      '{"_id":"a","text":"first","metadata":{}}',
      '',
      '{"id":7,"claim":"second","context":"ctx","wiki_title":"T","section":"S","label":"supported"}',
      '{"id":"c","query":"third","title":"Title"}',
    ].join('\n'),
  );
  const qs = await readQueries(p);
  assert.deepEqual(qs, [
    { id: 'a', text: 'first', extra: { metadata: {} } },
    { id: '7', text: 'second', context: 'ctx', title: 'T', section: 'S', extra: { label: 'supported' } },
    { id: 'c', text: 'third', title: 'Title', extra: {} },
  ]);
});

test('readQueries: errors name file, line and field', async () => {
  const dir = await tmp();
  const cases: [string, number, string | undefined][] = [
    ['{"_id":"a","text":"x"}\n{"_id": oops}', 2, undefined],
    ['{"_id":"a"}', 1, 'text|query|claim'],
    ['{"text":"x"}', 1, '_id|id'],
    ['{"_id":"a","text":"x"}\n\n{"_id":"a","text":"y"}', 3, '_id'],
    ['{"_id":"a","text":"x","context":5}', 1, 'context'],
  ];
  for (const [text, line, field] of cases) {
    const p = await file(dir, 'bad.jsonl', text);
    await assert.rejects(readQueries(p), (e: unknown) => {
      assert.ok(e instanceof RecordError, String(e));
      assert.equal(e.file, p);
      assert.equal(e.line, line);
      assert.equal(e.field, field);
      assert.ok(e.message.startsWith(`${p}:${line}`));
      return true;
    });
  }
});

test('readQrels: BEIR TSV with and without header, TREC 4 columns, JSONL', async () => {
  const dir = await tmp();
  const want = new Map([
    ['q1', new Map([['d1', 1], ['d2', 2]])],
    ['q2', new Map([['d3', 0]])],
  ]);
  const tsvH = await file(dir, 'h.tsv', 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t2\nq2\td3\t0\n');
  const tsv = await file(dir, 'n.tsv', 'q1\td1\t1\r\nq1\td2\t2\r\nq2\td3\t0');
  const trec = await file(dir, 't.txt', 'q1 0 d1 1\nq1 0 d2 2\nq2 0 d3 0\n');
  const jsonl = await file(
    dir,
    'j.jsonl',
    '{"query_id":"q1","doc_id":"d1","relevance":1}\n{"query_id":"q1","doc_id":"d2","relevance":2}\n{"query_id":"q2","doc_id":"d3","relevance":0}\n',
  );
  for (const p of [tsvH, tsv, trec, jsonl]) assert.deepEqual(await readQrels(p), want, p);
});

test('readQrels: bad rows name line and field', async () => {
  const dir = await tmp();
  const p = await file(dir, 'bad.tsv', 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\thigh\n');
  await assert.rejects(readQrels(p), (e: unknown) => e instanceof RecordError && e.line === 3 && e.field === 'score');
  const p2 = await file(dir, 'bad2.tsv', 'q1\td1\n');
  await assert.rejects(readQrels(p2), (e: unknown) => e instanceof RecordError && e.line === 1);
  const p3 = await file(dir, 'bad.jsonl', '{"query_id":"q1","doc_id":"d1","relevance":"1"}\n');
  await assert.rejects(readQrels(p3), (e: unknown) => e instanceof RecordError && e.field === 'relevance');
});

test('scifactTask on claims_dev: 300 queries / 339 qrels like BEIR SciFact test', { skip: !existsSync(`${DATA}/scifact/claims_dev.jsonl`) }, async () => {
  const t = await scifactTask(`${DATA}/scifact/claims_dev.jsonl`);
  assert.equal(t.queries.length, 300);
  let pairs = 0;
  for (const m of t.qrels.values()) pairs += m.size;
  assert.equal(pairs, 339);
  const q3 = t.queries.find((q) => q.id === '3');
  assert.ok(q3?.text.startsWith('1,000 genomes project'));
  assert.deepEqual(t.qrels.get('3'), new Map([['14717500', 1]]));
  assert.deepEqual(t.qrels.get('36'), new Map([['5152028', 1], ['11705328', 1]]));
});

test('scifactTask rejects claims without cited_doc_ids (e.g. the test split)', async () => {
  const dir = await tmp();
  const p = await file(dir, 'c.jsonl', '{"id":1,"claim":"x"}\n');
  await assert.rejects(scifactTask(p), (e: unknown) => e instanceof RecordError && e.field === 'cited_doc_ids');
});

test('wiceTask: one relevant doc per query, context kept', { skip: !existsSync(`${DATA}/wice/retrieval_dev_queries.jsonl`) }, async () => {
  const t = await wiceTask(`${DATA}/wice/retrieval_dev_queries.jsonl`);
  assert.equal(t.queries.length, 349);
  for (const q of t.queries) {
    assert.equal(t.qrels.get(q.id)?.size, 1);
    assert.equal(typeof q.context, 'string'); // 39 dev queries have an empty context
    assert.ok(q.title);
  }
  const q = t.queries.find((x) => x.id === 'dev02986');
  assert.equal(q?.title, 'Roger Hedgecock');
  assert.equal(q?.section, 'Other endeavors.');
  assert.deepEqual(t.qrels.get('dev02986'), new Map([['914d436642c70f6e', 1]]));
});

test('writeBeirFiles round-trips through beirTask', async () => {
  const dir = await tmp();
  const task = {
    name: 't',
    queries: [
      { id: 'q1', text: 'one', context: 'c', title: 'T', section: 'S', extra: {} },
      { id: 'q2', text: 'two', extra: {} },
      { id: 'q3', text: 'no qrels', extra: {} },
    ],
    qrels: new Map([
      ['q1', new Map([['d1', 1]])],
      ['q2', new Map([['d2', 1], ['d3', 2]])],
    ]),
  };
  const out = join(dir, 'nested', 'beir');
  const { qrelsPath } = await writeBeirFiles(task, out);
  assert.equal((await readFile(qrelsPath, 'utf8')).split('\n')[0], 'query-id\tcorpus-id\tscore');
  const back = await beirTask(out, 'test', 't');
  assert.deepEqual(back.qrels, task.qrels);
  // Like BEIR's loader, queries without qrels in the split are dropped.
  assert.deepEqual(
    back.queries.map((q) => ({ ...q, extra: {} })),
    task.queries.slice(0, 2),
  );
});
