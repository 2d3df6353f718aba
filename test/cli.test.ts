/**
 * The `veracite` command as a user runs it: index with progress and a summary, a bad record named by
 * file and line, search output, and option validation.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

function veracite(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [...cliEntryArgs(), ...args], { encoding: 'utf8', timeout: 120_000, ...(input !== undefined ? { input } : {}) });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal };
}

describe('veracite CLI', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-cli-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('indexes a corpus with a bad line: summary counts it and names file, line and field', async () => {
    const lines = (await readFile('data/samples/scifact/corpus.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 50);
    lines.splice(7, 0, '{"doc_id": 5, "title": "t"}');
    const file = join(dir, 'c.jsonl');
    await writeFile(file, lines.join('\n') + '\n');
    const r = veracite(['index', file, '--index', join(dir, 'idx'), '--format', 'scifact', '--json']);
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out) as { stats: { documents: number }; sources: { skipped: number; errors: string[] }[]; snapshot: string };
    assert.equal(summary.stats.documents, 50);
    assert.equal(summary.sources[0]!.skipped, 1);
    assert.match(summary.sources[0]!.errors[0]!, /c\.jsonl:8 field "abstract"/);
    assert.match(summary.snapshot, /@p\d+\.d\d+$/);
    assert.match(r.err, /docs\/s/, 'progress shows rates');
  });

  it('--on-error stop exits non-zero with the location of the bad record', () => {
    const r = veracite(['index', join(dir, 'c.jsonl'), '--index', join(dir, 'idx2'), '--format', 'scifact', '--on-error', 'stop', '--quiet']);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /c\.jsonl:8 field "abstract"/);
  });

  it('searches and prints documents with their best passage, or JSON', () => {
    const r = veracite(['search', 'rare genetic variants and disease risk', '--index', join(dir, 'idx'), '-k', '3', '--json']);
    assert.equal(r.code, 0, r.err);
    const res = JSON.parse(r.out) as { documents: { rank: number; score: number; passages: unknown[] }[]; snapshot: string; configHash: string };
    assert.ok(res.documents.length > 0 && res.documents.length <= 3);
    assert.equal(res.documents[0]!.rank, 1);
    assert.ok(res.configHash.length > 0);
    const text = veracite(['search', 'rare genetic variants', '--index', join(dir, 'idx'), '-k', '2']);
    assert.match(text.out, /  1\. \[\d+\.\d+\]/);
    assert.match(text.out, /^ {2}\[score\]: BM25 of the best passage \(higher = better match; unbounded, not a probability\)$/m, 'the scores say what they are');
  });

  it('rejects bad option values with a message naming the option', () => {
    const r = veracite(['search', 'x', '--index', join(dir, 'idx'), '-k', 'zero']);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /-k must be a positive integer/);
    const m = veracite(['search', 'x', '--index', join(dir, 'idx'), '--mode', 'magic']);
    assert.match(m.err, /--mode must be one of auto, bm25, dense, hybrid/);
  });

  it('train --sick refuses to write where the shipped weights live (SICK is non-commercial), before loading anything', () => {
    const r = veracite(['train', '--sick', '--data', 'data/samples']);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /--sick: SICK is CC BY-NC-SA \(non-commercial\).*pass --out to another folder/);
    const other = veracite(['train', '--sick', '--data', 'data/samples', '--out', join(dir, 'sick-models')]);
    assert.notEqual(other.code, 0);
    assert.doesNotMatch(other.err, /non-commercial/, 'another --out is allowed');
  });

  it('index --dense with no files adds vectors to a BM25-only index, resumably: dense search works, a second run embeds nothing', async () => {
    const lines = (await readFile('data/samples/scifact/corpus.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 40);
    const corpus = join(dir, 'bf.jsonl');
    await writeFile(corpus, lines.join('\n') + '\n');
    const idx = join(dir, 'bf-idx');
    assert.equal(veracite(['index', corpus, '--index', idx, '--quiet']).code, 0);
    assert.match(veracite(['search', 'vitamin', '--index', idx, '--mode', 'dense']).err, /"dense" needs an index with vectors/);
    const first = veracite(['index', '--dense', '--index', idx, '--quiet', '--json']);
    assert.equal(first.code, 0, first.err);
    const s1 = JSON.parse(first.out) as { embedded: number; alreadyEmbedded: number; interrupted: boolean };
    assert.ok(s1.embedded > 40 && s1.alreadyEmbedded === 0 && !s1.interrupted, first.out);
    const dense = veracite(['search', 'vitamin D and bone fractures', '--index', idx, '--mode', 'dense', '-k', '3', '--json']);
    assert.equal(dense.code, 0, dense.err);
    assert.equal((JSON.parse(dense.out) as { documents: unknown[] }).documents.length, 3);
    const again = JSON.parse(veracite(['index', '--dense', '--index', idx, '--quiet', '--json']).out) as { embedded: number; alreadyEmbedded: number };
    assert.deepEqual([again.embedded, again.alreadyEmbedded], [0, s1.embedded]);
    assert.match(veracite(['index', '--index', idx]).err, /give the corpus files or folders to index, or --dense alone/);
  });

  it('refuses to search a directory that is not an index', () => {
    const r = veracite(['search', 'x', '--index', join(dir, 'nothing-here')]);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /no veracite index here/);
  });

  it('batch-verifies a SciFact claims file, and claims given on stdin', async () => {
    // The claims file of SciFact itself ({id, claim, evidence, cited_doc_ids}): never mistaken for a corpus.
    const claims = (await readFile('data/samples/scifact/claims_dev.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 3);
    const file = join(dir, 'claims.jsonl');
    await writeFile(file, claims.join('\n') + '\n');
    const out = join(dir, 'verdicts.jsonl');
    const r = veracite(['verify', '--claims', file, '--out', out, '--index', join(dir, 'idx'), '--quiet']);
    assert.equal(r.code, 0, r.err);
    const verdicts = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { id: string; label: string; evidence: unknown[] });
    assert.deepEqual(verdicts.map((v) => v.id), claims.map((l) => String((JSON.parse(l) as { id: number }).id)));
    assert.ok(verdicts.every((v) => ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'].includes(v.label)));
    // It ends with a summary: counts per label, agreement with SciFact's gold labels, throughput (claims-summary.ts).
    const counted = (/labels: SUPPORTS (\d+), REFUTES (\d+), NOT ENOUGH INFO (\d+)/.exec(r.err) ?? []).slice(1).map(Number);
    assert.deepEqual(counted, ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'].map((l) => verdicts.filter((v) => v.label === l).length), r.err);
    assert.match(r.err, /agreement with the gold labels: \d\/3 \(accuracy [\d.]+, macro-F1 [\d.]+\)/);
    assert.match(r.err, /verified 3 claims \(0 already in .*\) -> .* in [\d.]+ s \([\d.]+ claims\/s\)/);

    const fromStdin = join(dir, 'verdicts-stdin.jsonl');
    const s = veracite(['verify', '--claims', '-', '--out', fromStdin, '--index', join(dir, 'idx'), '--quiet'], claims.join('\n') + '\n');
    assert.equal(s.code, 0, s.err);
    assert.equal((await readFile(fromStdin, 'utf8')).trim().split('\n').length, 3);

    const one = veracite(['verify', '-', '--index', join(dir, 'idx'), '--json'], 'Rare variants have larger effects than common variants.\n');
    assert.equal(one.code, 0, one.err);
    assert.equal((JSON.parse(one.out) as { claim: string }).claim, 'Rare variants have larger effects than common variants.');
  });

  it('resumes a batch only into verdicts of the same claims and settings: another file\'s ids, one id twice or a bad line are refused before any model loads', async () => {
    const claims = (await readFile('data/samples/scifact/claims_dev.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 4);
    const out = join(dir, 'resume.jsonl');
    const three = join(dir, 'three.jsonl');
    await writeFile(three, claims.slice(0, 3).join('\n') + '\n');
    assert.equal(veracite(['verify', '--claims', three, '--out', out, '--index', join(dir, 'idx'), '--quiet']).code, 0);
    const written = await readFile(out, 'utf8');
    // Another claims file whose ids overlap ("1" is SciFact's first id and also what line 1 without an id gets).
    const other = join(dir, 'other.jsonl');
    await writeFile(other, '{"claim": "Vitamin D deficiency increases the risk of fractures."}\n');
    const clash = veracite(['verify', '--claims', other, '--out', out, '--index', join(dir, 'idx'), '--quiet']);
    assert.equal(clash.code, 64, clash.err);
    assert.match(clash.err, /resume\.jsonl already answers id "1" \(its line 1\) for another claim: "0-dimensional biomaterials.*not .*other\.jsonl:1's "Vitamin D deficiency.*give --out a new file/);
    // One id on two lines: the second could never be resumed.
    const twice = join(dir, 'twice.jsonl');
    await writeFile(twice, '{"id": "a", "claim": "Aspirin reduces the risk of heart attack."}\n{"id": "a", "claim": "Smoking causes lung cancer."}\n');
    const dup = veracite(['verify', '--claims', twice, '--out', join(dir, 'dup.jsonl'), '--index', join(dir, 'idx'), '--quiet']);
    assert.equal(dup.code, 65, dup.err);
    assert.match(dup.err, /twice\.jsonl:2 field "id": "a" is also the id of .*twice\.jsonl:1/);
    // A bad third line: nothing is verified, not the two lines before it.
    const bad = join(dir, 'bad3.jsonl');
    await writeFile(bad, claims.slice(0, 2).join('\n') + '\n{"id": 9, "claim": "unterminated\n');
    const b = veracite(['verify', '--claims', bad, '--out', join(dir, 'bad-out.jsonl'), '--index', join(dir, 'idx'), '--quiet']);
    assert.equal(b.code, 65, b.err);
    assert.match(b.err, /bad3\.jsonl:3/);
    await assert.rejects(readFile(join(dir, 'bad-out.jsonl'), 'utf8'), { code: 'ENOENT' });
    assert.equal(await readFile(out, 'utf8'), written, 'the refused runs left --out as it was');
    // The same claims and one more, with other retrieval settings: not mixed into the file.
    const four = join(dir, 'four.jsonl');
    await writeFile(four, claims.join('\n') + '\n');
    const mixed = veracite(['verify', '--claims', four, '--out', out, '--index', join(dir, 'idx'), '--candidates', '3', '--quiet']);
    assert.equal(mixed.code, 64, mixed.err);
    assert.match(mixed.err, /resume\.jsonl holds answers made with another configuration \(config [0-9a-f]+; this run's is [0-9a-f]+/);
    assert.equal(await readFile(out, 'utf8'), written);
    // With the first run's settings it resumes, and sums up the whole file.
    const resumed = veracite(['verify', '--claims', four, '--out', out, '--index', join(dir, 'idx'), '--quiet']);
    assert.equal(resumed.code, 0, resumed.err);
    assert.match(resumed.err, /verified 1 claims \(3 already in .*resume\.jsonl\)/);
    assert.match(resumed.err, /labels \(all 4 claims, this run's and the 3 before\): SUPPORTS \d, REFUTES \d, NOT ENOUGH INFO \d/);
    assert.match(resumed.err, /agreement with the gold labels: \d\/4 /);
    assert.equal((await readFile(out, 'utf8')).trim().split('\n').length, 4);
  });

  it('Ctrl-C in a batch says what was kept and how to go on, exits 130, and the run resumes without a loss', async () => {
    const claims = (await readFile('data/samples/scifact/claims_dev.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 40);
    const file = join(dir, 'forty.jsonl');
    await writeFile(file, claims.join('\n') + '\n');
    const out = join(dir, 'forty-out.jsonl');
    const child = spawn(process.execPath, [...cliEntryArgs(), 'verify', '--claims', file, '--out', out, '--index', join(dir, 'idx'), '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on('close', (code, signal) => res({ code, signal })));
    // Interrupted once the first verdict is on disk.
    for (let i = 0; i < 600; i++) {
      const now = await readFile(out, 'utf8').catch(() => '');
      if (now.includes('\n')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGINT');
    const end = await ended;
    assert.ok(end.code === 130 || end.signal === 'SIGINT', JSON.stringify(end));
    const m = /stopped \(Ctrl-C\) after (\d+) of 40 claims; every answer so far is in .*forty-out\.jsonl: run the same command again to resume/.exec(err);
    assert.ok(m, err);
    const kept = (await readFile(out, 'utf8')).split('\n').filter(Boolean).length;
    assert.ok(kept >= 1 && kept < 40, String(kept));
    const again = veracite(['verify', '--claims', file, '--out', out, '--index', join(dir, 'idx'), '--quiet']);
    assert.equal(again.code, 0, again.err);
    const ids = (await readFile(out, 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    assert.deepEqual(ids, claims.map((l) => String((JSON.parse(l) as { id: number }).id)), 'every claim once, in order');
  });

  it('prints a hostile page\'s title and text without its control sequences (window title, clipboard, links)', async () => {
    const page = join(dir, 'hostile.html');
    await writeFile(page, '<html><head><title>X \u001b]0;PWNED\u0007 T</title></head><body><p>Vitamin D deficiency increases fracture risk \u001b]52;c;ZWNobw==\u0007 in older adults \u001b]8;;https://evil.example\u0007here\u001b]8;;\u0007.</p></body></html>');
    const r = veracite(['check', 'Vitamin D deficiency increases fracture risk.', '--source', page, '--no-index']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /evidence in the source \(X {2}T;/);
    assert.match(r.out, /fracture risk {2}in older adults here\./);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(r.out + r.err, /[\u0007\u009b\u009d]|\u001b[^[]/);
  });

  it('refuses an over-long command-line argument before any model loads, stating the claim cap and pointing to files and stdin', () => {
    const r = veracite(['verify', 'x'.repeat(30_000), '--index', join(dir, 'idx')]);
    assert.equal(r.signal, null, 'no crash');
    assert.equal(r.code, 64, 'a usage error (util/exit-codes.ts)');
    assert.match(r.err, /30000 characters .*a claim may have at most 2000 characters.*in a file \(--source page\.txt\) or on stdin \(--source -\)/);
  });

  it('writes TREC run files (search, eval retrieval) and scores any run against qrels as eval retrieval does', async () => {
    const idx = join(dir, 'full');
    assert.equal(veracite(['index', 'data/samples/scifact/corpus.jsonl', '--index', idx, '--quiet']).code, 0);
    const one = join(dir, 'one.run');
    const s = veracite(['search', 'rare genetic variants', '--index', idx, '-k', '3', '--run', one, '--qid', 'q7']);
    assert.equal(s.code, 0, s.err);
    const lines = (await readFile(one, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^q7 Q0 \S+ 1 [\d.e+-]+ veracite-bm25$/);

    // The sample's claims as queries and TREC qrels (their cited abstracts are all in the sample).
    const claims = (await readFile('data/samples/scifact/claims_dev.jsonl', 'utf8')).split('\n').filter(Boolean).slice(0, 20).map((l) => JSON.parse(l) as { id: number; claim: string; cited_doc_ids: number[] });
    assert.ok(claims.length >= 3, `${claims.length} claims`);
    const queries = join(dir, 'queries.jsonl');
    const qrels = join(dir, 'qrels.txt');
    await writeFile(queries, claims.map((c) => JSON.stringify({ _id: String(c.id), text: c.claim })).join('\n') + '\n');
    await writeFile(qrels, claims.flatMap((c) => c.cited_doc_ids.map((d) => `${c.id} 0 ${d} 1`)).join('\n') + '\n');
    const run = join(dir, 'eval.run');
    const evaluated = join(dir, 'eval.json');
    const e = veracite(['eval', 'retrieval', '--index', idx, '--task', 'files', '--queries', queries, '--qrels', qrels, '--run', run, '--out', evaluated, '--quiet']);
    assert.equal(e.code, 0, e.err);
    const scored = join(dir, 'scored.json');
    const r = veracite(['eval', 'retrieval', '--run', run, '--qrels', qrels, '--out', scored]);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(await readFile(evaluated, 'utf8')) as { metrics: Record<string, number> };
    const b = JSON.parse(await readFile(scored, 'utf8')) as { metrics: Record<string, number>; nEvaluated: number };
    assert.equal(b.nEvaluated, claims.length);
    for (const m of ['ndcg@10', 'recall@100', 'mrr']) assert.ok(Math.abs(a.metrics[m]! - b.metrics[m]!) < 1e-9, `${m}: ${a.metrics[m]} vs ${b.metrics[m]}`);
  });
});
