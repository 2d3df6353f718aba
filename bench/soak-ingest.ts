/**
 * Fault-injection soak for the ingest (issue 12): `kill -9` at random moments across the whole ingest
 * (startup, the first table creation, batch commits, re-indexing over existing rows, the text-index build),
 * one to three kills in a row, then a clean rerun whose result must be exact: every id present once, the
 * expected passages, no duplicate rows, searchable. Then pairs of concurrent writers, which must never
 * corrupt or duplicate, the refused one being told who holds the index.
 *
 * Not a unit test: it takes minutes and its figures go to bench/results/soak-ingest.json and docs/RESULTS.md.
 *   node --import tsx bench/soak-ingest.ts [--kills 60] [--writers 6] [--seed 12] [--dir tmp/soak]
 * The same file is the child process (`--child ...`): what `veracite index` does, reduced to library calls.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import * as lancedb from '@lancedb/lancedb';
import { chunkPassages } from '../src/corpus/passages.js';
import { prepareDocument } from '../src/corpus/prepare.js';
import { readCorpus } from '../src/corpus/read-corpus.js';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore, MissingIndexError } from '../src/store/lancedb-store.js';
import { hasCommittedVersion } from '../src/store/lance-tables.js';
import { uniform } from '../src/util/rng.js';
import { saveBenchResult } from './util.js';

const SAMPLE = 'data/samples/scifact/corpus.jsonl';
const BATCH = 40;

/** Child: index <corpus> into <dir>, printing its phase on stdout (so the parent knows where a kill landed). */
async function child([dir, corpus, resume, gate]: string[]): Promise<void> {
  if (gate === 'gate') {
    console.log('ready');
    const rl = createInterface({ input: process.stdin });
    await new Promise((r) => rl.once('line', r));
    rl.close();
  }
  console.log('phase start');
  let store: LanceStore | undefined;
  try {
    // As `veracite index` should: the writer lock is taken at open, before any work.
    store = await LanceStore.open(dir!, { lock: 'open' });
    console.log('phase locked');
    const s = await ingestSource(store, corpus!, {
      format: 'scifact',
      batchSize: BATCH,
      resume: resume !== 'no-resume',
      onProgress: (p) => console.log(p.phase === 'reading' ? `phase batch ${p.records}` : `phase ${p.phase}`),
    });
    await store.close();
    store = undefined;
    console.log(`result ${JSON.stringify({ ok: true, indexed: s.indexed, documents: s.documents, replaced: s.replaced, resumedFrom: s.resumedFrom })}`);
  } catch (e) {
    await store?.close().catch(() => undefined);
    console.log(`result ${JSON.stringify({ ok: false, name: (e as Error).name, message: (e as Error).message })}`);
    process.exitCode = 2;
  }
}

interface Spawned {
  proc: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

function spawnChild(dir: string, corpus: string, resume: boolean, gate = false): Spawned {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/soak-ingest.ts', '--child', dir, corpus, resume ? 'resume' : 'no-resume', gate ? 'gate' : ''], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  createInterface({ input: proc.stdout! }).on('line', (l) => lines.push(l));
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) =>
    proc.once('close', (code) => {
      if (code !== 0 && code !== null && code !== 2) console.error(stderr.slice(-2000));
      r(code);
    }),
  );
  return { proc, lines, exited };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lastPhase = (s: Spawned) => [...s.lines].reverse().find((l) => l.startsWith('phase '))?.slice(6) ?? 'startup';
const resultOf = (s: Spawned) => {
  const line = s.lines.find((l) => l.startsWith('result '));
  return line ? (JSON.parse(line.slice(7)) as { ok: boolean; name?: string; message?: string; indexed?: number }) : undefined;
};

/** Waits until `cond` holds (polled every millisecond), the child exits, or `ms` pass. */
async function waitFor(cond: () => boolean, s: Spawned, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && s.proc.exitCode === null) {
    if (cond()) return true;
    await sleep(1);
  }
  return cond();
}

type KillMode = 'uniform' | 'first-create' | 'mid-batches' | 'text-index';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '60' },
      writers: { type: 'string', default: '6' },
      seed: { type: 'string', default: '12' },
      dir: { type: 'string', default: 'tmp/soak' },
    },
  });
  const rand = uniform(Number(values.seed));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const root = resolve(values.dir!);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const started = performance.now();

  // The corpus: the SciFact sample, 25 of its ids again with other text (last occurrence wins), and one
  // abstract with a 600-word sentence (split into pieces).
  const lines = readFileSync(SAMPLE, 'utf8').split('\n').filter((l) => l.trim());
  const dups = lines.slice(100, 125).map((l) => {
    const r = JSON.parse(l) as { abstract: string[] };
    r.abstract = [...r.abstract].reverse().concat(['A replaced version of this abstract.']);
    return JSON.stringify(r);
  });
  const long = JSON.stringify({ doc_id: 999_999_999, title: 'Run-on', abstract: [Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ')], structured: false });
  const corpus = join(root, 'corpus.jsonl');
  writeFileSync(corpus, [...lines.slice(0, 500), ...dups, long, ...lines.slice(500)].join('\n') + '\n');
  const expected = await expectedIndex(corpus);
  console.log(`soak corpus: ${lines.length + dups.length + 1} records, ${expected.docs.size} distinct ids, ${expected.passages} passages`);

  // A clean run, timed, sets the window for uniform kills.
  const t0 = performance.now();
  const clean = spawnChild(join(root, 'timing'), corpus, true);
  await clean.exited;
  const fullMs = performance.now() - t0;
  const cleanCheck = await checkIndex(join(root, 'timing'), expected);
  console.log(`clean run: ${(fullMs / 1000).toFixed(1)} s, check ${JSON.stringify(cleanCheck)}`);

  const target = Number(values.kills);
  const tally = {
    kills: 0,
    killsByMode: {} as Record<string, number>,
    killsByPhase: {} as Record<string, number>,
    /** Kills that left a table folder with data but no committed version (the defect-1 state). */
    halfWrittenTablesSeen: 0,
    /**
     * Kills during a --no-resume re-index of a complete index (issue 27): how many, how many left fewer
     * document ids than the complete index had (none was removed from the source), and the ids missing in all.
     */
    reindexKills: 0,
    reindexKillsLosingDocuments: 0,
    documentsMissingAfterReindexKills: 0,
    /** Kills after which the child had already finished (not counted as kills). */
    missedKills: 0,
    /** Read opens right after a kill: answered, or refused as not built yet (nothing committed), or failed. */
    readsAfterKill: { answered: 0, refusedNothingCommitted: 0, failed: 0 },
    runs: 0,
    unusableIndexes: 0,
    lostRecords: 0,
    duplicatedRecords: 0,
    wrongPassageCounts: 0,
    failures: [] as string[],
  };
  let run = 0;
  let dir = '';
  while (tally.kills < target) {
    run++;
    // Half the runs build a new index (first creation); the rest re-index the last complete one over its
    // rows, without resuming (deletes + adds on a non-empty index).
    const fresh = run === 1 || rand() < 0.5;
    if (fresh) dir = join(root, `idx-${run}`);
    const kills = 1 + Math.floor(rand() * 3);
    for (let k = 0; k < kills && tally.kills < target; k++) {
      // A first creation can only be hit while the index has no committed table yet.
      const creatable = !(await hasCommittedVersion(dir, 'passages')) || !(await hasCommittedVersion(dir, 'documents'));
      const mode: KillMode = pick(creatable ? (['uniform', 'first-create', 'mid-batches', 'text-index'] as const) : (['uniform', 'mid-batches', 'text-index'] as const));
      const c = spawnChild(dir, corpus, k > 0 || fresh);
      const landed = await killSomewhere(c, dir, mode, fullMs, rand);
      if (!landed) {
        tally.missedKills++;
        continue;
      }
      tally.kills++;
      tally.killsByMode[mode] = (tally.killsByMode[mode] ?? 0) + 1;
      const phase = lastPhase(c).replace(/^batch \d+$/, 'batch');
      tally.killsByPhase[phase] = (tally.killsByPhase[phase] ?? 0) + 1;
      if (await hasHalfWrittenTable(dir)) tally.halfWrittenTablesSeen++;
      if (!fresh) {
        const missing = expected.docs.size - (await committedDocumentIds(dir)).size;
        tally.reindexKills++;
        if (missing > 0) tally.reindexKillsLosingDocuments++;
        tally.documentsMissingAfterReindexKills += Math.max(0, missing);
      }
      const read = await readAfterKill(dir);
      tally.readsAfterKill[read.outcome]++;
      if (read.outcome === 'failed') tally.failures.push(`run ${run} kill ${k + 1} (${mode}, ${phase}): read after kill: ${read.message}`);
    }
    // The rerun: must finish and leave exactly the expected index.
    const rerun = spawnChild(dir, corpus, true);
    await rerun.exited;
    const r = resultOf(rerun);
    tally.runs++;
    if (!r?.ok) {
      tally.unusableIndexes++;
      tally.failures.push(`run ${run}: rerun failed: ${r?.message ?? 'no result'}`);
      continue;
    }
    const check = await checkIndex(dir, expected);
    tally.lostRecords += check.lost;
    tally.duplicatedRecords += check.duplicated;
    if (check.passages !== expected.passages) tally.wrongPassageCounts++;
    if (!check.searchable || check.error) {
      tally.unusableIndexes++;
      tally.failures.push(`run ${run}: ${check.error ?? 'search returned nothing'}`);
    }
    console.log(`run ${run}: ${kills} kill(s), total ${tally.kills}/${target}; rerun resumed from ${JSON.stringify(r)}; check ${JSON.stringify(check)}`);
  }

  // Concurrent writers: two children released at the same moment, on a new or an existing index.
  const writers = { rounds: 0, bothSucceeded: 0, oneRefused: 0, clearMessage: 0, corruptOrWrong: 0, duplicatedRecords: 0, lostRecords: 0, messages: [] as string[] };
  for (let w = 0; w < Number(values.writers); w++) {
    const wdir = w % 2 === 0 ? join(root, `writers-${w}`) : join(root, `writers-${w - 1}`);
    const pair = [spawnChild(wdir, corpus, true, true), spawnChild(wdir, corpus, true, true)];
    while (!pair.every((p) => p.lines.includes('ready'))) await sleep(5);
    for (const p of pair) p.proc.stdin!.write('go\n');
    await Promise.all(pair.map((p) => p.exited));
    const results = pair.map(resultOf);
    writers.rounds++;
    const refused = results.filter((x) => x && !x.ok);
    if (refused.length === 0) writers.bothSucceeded++;
    if (refused.length === 1) writers.oneRefused++;
    for (const x of refused) {
      if (x!.name === 'WriterLockError' && /being written by another process \(pid \d+/.test(x!.message!)) writers.clearMessage++;
      if (writers.messages.length < 2) writers.messages.push(x!.message!);
    }
    const check = await checkIndex(wdir, expected);
    writers.duplicatedRecords += check.duplicated;
    writers.lostRecords += check.lost;
    if (check.error || check.passages !== expected.passages || !check.searchable) writers.corruptOrWrong++;
    console.log(`writers round ${w + 1} (${w % 2 === 0 ? 'new' : 'existing'} index): ${results.map((x) => (x?.ok ? 'wrote' : `refused (${x?.name})`)).join(', ')}; check ${JSON.stringify(check)}`);
  }

  const seconds = (performance.now() - started) / 1000;
  const result = {
    config: { seed: Number(values.seed), batchSize: BATCH, records: lines.length + dups.length + 1, distinctIds: expected.docs.size, passages: expected.passages, cleanRunSeconds: fullMs / 1000 },
    ...tally,
    concurrentWriters: writers,
    seconds,
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `\n${tally.kills} kills in ${tally.runs} runs (${tally.halfWrittenTablesSeen} left a half-written table): ${tally.unusableIndexes} unusable indexes, ${tally.lostRecords} lost, ${tally.duplicatedRecords} duplicated records; ` +
      `${tally.reindexKills} kills during a re-index: ${tally.reindexKillsLosingDocuments} left documents missing (${tally.documentsMissingAfterReindexKills} in all); ` +
      `${writers.rounds} concurrent-writer rounds: ${writers.corruptOrWrong} corrupt, ${writers.duplicatedRecords} duplicated, ${writers.clearMessage}/${writers.oneRefused} refusals with the holder named`,
  );
  saveBenchResult('soak-ingest', result);
  rmSync(root, { recursive: true, force: true });
}

/** Kills the child at a moment chosen by `mode`; false when it finished first. */
async function killSomewhere(c: Spawned, dir: string, mode: KillMode, fullMs: number, rand: () => number): Promise<boolean> {
  const table = join(dir, 'passages.lance');
  const docs = join(dir, 'documents.lance');
  if (mode === 'uniform') {
    await Promise.race([sleep(rand() * fullMs), c.exited]);
  } else if (mode === 'first-create') {
    // Right when a table folder appears: inside (or just after) its first createTable, whose data files
    // come before its first commit by a millisecond or so; polled without timers to land in that gap.
    const which = rand() < 0.5 ? table : docs;
    const end = Date.now() + 60_000;
    while (!existsSync(which) && c.proc.exitCode === null && Date.now() < end) await new Promise((r) => setImmediate(r));
    if (rand() < 0.5) await sleep(Math.floor(rand() * 4));
  } else if (mode === 'mid-batches') {
    const n = 1 + Math.floor(rand() * 20);
    await waitFor(() => c.lines.filter((l) => l.startsWith('phase batch')).length >= n, c, 60_000);
    await sleep(Math.floor(rand() * 40));
  } else {
    await waitFor(() => c.lines.includes('phase indexing'), c, 60_000);
    await sleep(Math.floor(rand() * 120));
  }
  if (c.proc.exitCode !== null) return false;
  c.proc.kill('SIGKILL');
  await c.exited;
  return true;
}

/** Distinct document ids committed in `dir` (read straight from the table, as any reader would see them). */
async function committedDocumentIds(dir: string): Promise<Set<string>> {
  const db = await lancedb.connect(dir);
  try {
    return new Set((await (await db.openTable('documents')).query().select(['id']).toArray()).map((r: { id: string }) => r.id));
  } finally {
    db.close();
  }
}

async function hasHalfWrittenTable(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return false;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.lance'))) {
    const name = f.replace(/\.lance$/, '');
    if (existsSync(join(dir, f, 'data')) && !(await hasCommittedVersion(dir, name))) return true;
  }
  return false;
}

/** What a reader (search) sees right after a kill. */
async function readAfterKill(dir: string): Promise<{ outcome: 'answered' | 'refusedNothingCommitted' | 'failed'; message?: string }> {
  try {
    const store = await LanceStore.open(dir, { readOnly: true });
    try {
      await store.stats();
      await store.searchText('cells protein', 5);
      return { outcome: 'answered' };
    } finally {
      await store.close();
    }
  } catch (e) {
    if (e instanceof MissingIndexError) return { outcome: 'refusedNothingCommitted' };
    return { outcome: 'failed', message: (e as Error).message };
  }
}

interface Expected {
  docs: Map<string, number>;
  passages: number;
}

async function expectedIndex(corpus: string): Promise<Expected> {
  const docs = new Map<string, number>();
  for await (const r of readCorpus(corpus, 'scifact')) if (r.ok) docs.set(r.doc.id, chunkPassages(prepareDocument(r.doc)).length);
  return { docs, passages: [...docs.values()].reduce((a, b) => a + b, 0) };
}

/** Row-level check straight on the LanceDB tables: every id once, the expected passages, no duplicates. */
async function checkIndex(dir: string, want: Expected): Promise<{ documents: number; passages: number; lost: number; duplicated: number; searchable: boolean; error?: string }> {
  try {
    const db = await lancedb.connect(dir);
    const ids = (await (await db.openTable('documents')).query().select(['id']).toArray()).map((r: { id: string }) => r.id);
    const pids = (await (await db.openTable('passages')).query().select(['id']).toArray()).map((r: { id: string }) => r.id);
    db.close();
    const distinct = new Set(ids);
    const lost = [...want.docs.keys()].filter((id) => !distinct.has(id)).length;
    const duplicated = ids.length - distinct.size + (pids.length - new Set(pids).size);
    const store = await LanceStore.open(dir, { readOnly: true });
    const searchable = (await store.searchText('cells protein', 5)).length > 0;
    await store.close();
    return { documents: ids.length, passages: pids.length, lost, duplicated, searchable };
  } catch (e) {
    return { documents: 0, passages: 0, lost: want.docs.size, duplicated: 0, searchable: false, error: (e as Error).message.slice(0, 300) };
  }
}

// Last, so every helper above is initialised before either role runs.
if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
