/**
 * Kill probe for re-indexing (issue 27, defect 5): an index of N documents, then `index --no-resume` over
 * the same ids with changed text (and fewer passages for some), killed with SIGKILL at a uniform random
 * moment of the re-index (after the child holds the lock); after each kill the tables are read as any reader would see them. Every id must
 * still have its document row (none was removed from the source), and every document's passages must be
 * all of its old version or all of its new one. Before the fix a kill here left e.g. 59,500 of 60,000.
 *
 *   node --import tsx bench/reindex-kill.ts [--docs 60000] [--kills 10] [--batch 2000] [--seed 27] [--dir tmp/reindex-kill]
 * The same file is the child process (`--child <dir> <corpus> <batch>`).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as lancedb from '@lancedb/lancedb';
import { ingestSource } from '../src/store/ingest.js';
import { LanceStore } from '../src/store/lancedb-store.js';
import { uniform } from '../src/util/rng.js';
import { saveBenchResult } from './util.js';

const WORDS = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(' ');

/** Document i of version v: v 1 has other words, and every third document drops to one short sentence. */
function record(i: number, version: number): string {
  const n = version === 1 && i % 3 === 0 ? 1 : 4 + (i % 3) * 6;
  const sentences = Array.from({ length: n }, (_, s) => `v${version} ` + Array.from({ length: 14 }, (_, w) => WORDS[(i * 7 + s * 3 + w + version * 5) % WORDS.length]).join(' ') + '.');
  return JSON.stringify({ id: `d${i}`, title: `Document ${i}`, sentences });
}

async function writeCorpus(path: string, docs: number, version: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < docs; i++) if (!out.write(record(i, version) + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
}

async function child([dir, corpus, batch, resume]: string[]): Promise<void> {
  const store = await LanceStore.open(dir!, { lock: 'open' });
  console.log('phase locked');
  await ingestSource(store, corpus!, { format: 'jsonl', batchSize: Number(batch), resume: resume === 'resume', onProgress: (p) => p.phase === 'reading' && console.log(`phase batch ${p.records}`) });
  await store.close();
  console.log('done');
}

function run(dir: string, corpus: string, batch: number, resume: boolean) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/reindex-kill.ts', '--child', dir, corpus, String(batch), resume ? 'resume' : 'no-resume'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let onLocked: () => void = () => undefined;
  const locked = new Promise<number>((r) => (onLocked = () => r(performance.now())));
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('phase locked')) onLocked();
  });
  const exited = new Promise<number | null>((r) => proc.once('close', r));
  return { proc, exited, locked, out: () => out };
}

/** What a reader sees: document ids, and per document the versions its passages carry. */
async function inspect(dir: string, docs: number): Promise<{ documents: number; missing: number; withoutPassages: number; mixed: number; newPassages: number; newDocuments: number }> {
  const db = await lancedb.connect(dir);
  try {
    const ids = new Set<string>();
    let newDocuments = 0;
    for await (const b of (await db.openTable('documents')).query().select(['id', 'sentences'])) {
      const id = b.getChild('id')!;
      const sents = b.getChild('sentences')!;
      for (let i = 0; i < b.numRows; i++) {
        ids.add(id.get(i) as string);
        if (String((sents.get(i) as { get(k: number): string }).get(0)).startsWith('v1 ')) newDocuments++;
      }
    }
    const versions = new Map<string, Set<string>>();
    let newPassages = 0;
    for await (const b of (await db.openTable('passages')).query().select(['doc_id', 'text'])) {
      const doc = b.getChild('doc_id')!;
      const text = b.getChild('text')!;
      for (let i = 0; i < b.numRows; i++) {
        const v = (text.get(i) as string).slice(0, 2);
        if (v === 'v1') newPassages++;
        const d = doc.get(i) as string;
        (versions.get(d) ?? versions.set(d, new Set()).get(d)!).add(v);
      }
    }
    let missing = 0;
    let withoutPassages = 0;
    for (let i = 0; i < docs; i++) {
      if (!ids.has(`d${i}`)) missing++;
      if (!versions.has(`d${i}`)) withoutPassages++;
    }
    const mixed = [...versions.values()].filter((s) => s.size > 1).length;
    return { documents: ids.size, missing, withoutPassages, mixed, newPassages, newDocuments };
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      docs: { type: 'string', default: '60000' },
      kills: { type: 'string', default: '10' },
      batch: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '27' },
      dir: { type: 'string', default: 'tmp/reindex-kill' },
    },
  });
  const docs = Number(values.docs);
  const batch = Number(values.batch);
  const rand = uniform(Number(values.seed));
  const root = resolve(values.dir!);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const v0 = join(root, 'v0.jsonl');
  const v1 = join(root, 'v1.jsonl');
  await writeCorpus(v0, docs, 0);
  await writeCorpus(v1, docs, 1);
  const idx = join(root, 'idx');

  let t = performance.now();
  await run(idx, v0, batch, true).exited;
  const buildSeconds = (performance.now() - t) / 1000;
  // The re-index's own time, from the child holding the lock (start-up excluded) to its exit.
  const timed = run(idx, v1, batch, false);
  await timed.exited;
  const reindexSeconds = (performance.now() - (await timed.locked)) / 1000;
  const clean = await inspect(idx, docs);
  console.log(`index ${buildSeconds.toFixed(1)} s, clean re-index ${reindexSeconds.toFixed(1)} s (from taking the lock): ${JSON.stringify(clean)}`);

  const kills: { atSeconds: number; batchesDone: number; documents: number; missing: number; withoutPassages: number; mixed: number; newDocuments: number }[] = [];
  let current = 1; // the version the complete index holds
  while (kills.length < Number(values.kills)) {
    // Every kill lands in a --no-resume re-index over a complete index, writing the other version.
    const target = current === 0 ? v1 : v0;
    const c = run(idx, target, batch, false);
    const at = rand() * reindexSeconds * 1000;
    await Promise.race([c.locked, c.exited]);
    await Promise.race([new Promise((r) => setTimeout(r, at)), c.exited]);
    if (c.proc.exitCode === null) {
      c.proc.kill('SIGKILL');
      await c.exited;
      const seen = await inspect(idx, docs);
      const batchesDone = c.out().split('\n').filter((l) => l.startsWith('phase batch')).length;
      kills.push({ atSeconds: at / 1000, batchesDone, documents: seen.documents, missing: seen.missing, withoutPassages: seen.withoutPassages, mixed: seen.mixed, newDocuments: seen.newDocuments });
      console.log(`kill ${kills.length} at ${(at / 1000).toFixed(1)} s (${batchesDone} batches reported): ${seen.documents} of ${docs} documents, ${seen.missing} missing, ${seen.withoutPassages} without passages, ${seen.mixed} with mixed-version passages`);
      // The rerun (resumed from the checkpoint) completes the target version.
      await run(idx, target, batch, true).exited;
    }
    current = 1 - current;
  }
  const result = {
    config: { docs, batch, seed: Number(values.seed) },
    buildSeconds,
    reindexSeconds,
    kills: kills.length,
    killsLosingDocuments: kills.filter((k) => k.missing > 0).length,
    documentsMissing: kills.reduce((a, k) => a + k.missing, 0),
    minDocumentsAfterKill: Math.min(...kills.map((k) => k.documents)),
    killsLeavingDocumentsWithoutPassages: kills.filter((k) => k.withoutPassages > 0).length,
    killsWithMixedPassages: kills.filter((k) => k.mixed > 0).length,
    each: kills,
  };
  console.log(JSON.stringify(result, null, 2));
  saveBenchResult('reindex-kill', result);
  rmSync(root, { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child(process.argv.slice(3));
else await main();
