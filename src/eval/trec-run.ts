/**
 * TREC run files, the format trec_eval, Anserini and Pyserini read and write: one line per retrieved
 * document, `qid Q0 docid rank score tag`, whitespace-separated. `writeTrecRun` / `TrecRunWriter` write
 * veracite's retrieval results that way; `readTrecRun` reads anyone's run; `scoreTrecRun` scores a run
 * against qrels (TREC `qid 0 docid rel`, BEIR TSV with or without header, or JSONL: retrieval-data.ts
 * readQrels) with the same metric code as `veracite eval retrieval` (retrieval-metrics.ts).
 *
 * Order: trec_eval ignores the rank column and sorts each query's documents by score, descending, ties
 * broken by document id descending. `scoreTrecRun` does the same by default (`order: 'trec_eval'`), so
 * its figures match trec_eval / pytrec_eval on the same files; `order: 'rank'` follows the rank column.
 * Scores are written at full precision (shortest round-trip form): rounding could create ties that
 * trec_eval would break differently from the engine's own order.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RecordError } from '../corpus/types.js';
import { readQrels } from './retrieval-data.js';
import { evaluateRun, type Qrels } from './retrieval-metrics.js';

export interface RunHit {
  docId: string;
  score: number;
}

export interface RunQuery {
  queryId: string;
  /** Best first, as the engine ranked them. */
  hits: readonly RunHit[];
}

/** TREC columns are split on whitespace: an id containing any cannot be written. */
function checkToken(value: string, what: string): void {
  if (!value || /\s/.test(value)) throw new Error(`TREC run: ${what} ${JSON.stringify(value)} is empty or contains whitespace, which the format cannot hold`);
}

/** The lines of one query, ranks from 1 in the given order. */
export function trecRunLines(q: RunQuery, tag: string): string[] {
  checkToken(q.queryId, 'query id');
  checkToken(tag, 'run tag');
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const h of q.hits) {
    checkToken(h.docId, `document id (query ${q.queryId})`);
    if (!Number.isFinite(h.score)) throw new Error(`TREC run: query ${q.queryId}, document ${h.docId}: score ${h.score} is not a finite number`);
    // A document twice in one query: trec_eval refuses such runs; keep its first (best) rank.
    if (seen.has(h.docId)) continue;
    seen.add(h.docId);
    lines.push(`${q.queryId} Q0 ${h.docId} ${lines.length + 1} ${String(h.score)} ${tag}`);
  }
  return lines;
}

/**
 * Writes a run query by query (a long evaluation need not hold every ranking), into `<path>.tmp`, renamed
 * to `path` by `close()`: an interrupted run never leaves a file that looks complete.
 */
export class TrecRunWriter {
  private constructor(
    readonly path: string,
    readonly tag: string,
    private readonly out: WriteStream,
    private readonly tmp: string,
  ) {}

  static async open(path: string, tag: string): Promise<TrecRunWriter> {
    checkToken(tag, 'run tag');
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp`;
    const out = createWriteStream(tmp, { encoding: 'utf8' });
    await new Promise<void>((resolve, reject) => out.once('open', () => resolve()).once('error', reject));
    return new TrecRunWriter(path, tag, out, tmp);
  }

  /** Queries may come in any order; each query id once. */
  async write(q: RunQuery): Promise<void> {
    const lines = trecRunLines(q, this.tag);
    if (!lines.length) return;
    if (!this.out.write(`${lines.join('\n')}\n`)) await new Promise<void>((resolve) => this.out.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    await rename(this.tmp, this.path);
  }

  /** Stop without a result: the temporary file is removed. */
  async abort(): Promise<void> {
    this.out.destroy();
    await rm(this.tmp, { force: true });
  }
}

/** Writes a whole run at once. */
export async function writeTrecRun(path: string, queries: Iterable<RunQuery>, tag: string): Promise<void> {
  const w = await TrecRunWriter.open(path, tag);
  try {
    for (const q of queries) await w.write(q);
  } catch (e) {
    await w.abort();
    throw e;
  }
  await w.close();
}

export interface RunLine {
  docId: string;
  rank: number;
  score: number;
}

export interface TrecRun {
  /** query id -> its lines, in file order. */
  queries: Map<string, RunLine[]>;
  /** Run tags seen (normally one). */
  tags: string[];
  lines: number;
}

/** Reads a run; a malformed line is reported with file, line and column. */
export async function readTrecRun(path: string): Promise<TrecRun> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: cannot read the run file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const queries = new Map<string, RunLine[]>();
  const seen = new Map<string, Set<string>>();
  const tags = new Set<string>();
  let n = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    const cols = raw.trim().split(/\s+/);
    if (cols.length !== 6) throw new RecordError(path, line, undefined, `expected 6 columns "qid Q0 docid rank score tag", got ${cols.length}`);
    const [qid, , docId, rankText, scoreText, tag] = cols as [string, string, string, string, string, string];
    const rank = Number(rankText);
    const score = Number(scoreText);
    if (!Number.isInteger(rank)) throw new RecordError(path, line, 'rank', `not an integer: "${rankText}"`);
    if (!Number.isFinite(score)) throw new RecordError(path, line, 'score', `not a number: "${scoreText}"`);
    let docs = seen.get(qid);
    if (!docs) seen.set(qid, (docs = new Set()));
    if (docs.has(docId)) throw new RecordError(path, line, 'docid', `document "${docId}" appears twice for query "${qid}" (trec_eval refuses duplicate documents)`);
    docs.add(docId);
    let list = queries.get(qid);
    if (!list) queries.set(qid, (list = []));
    list.push({ docId, rank, score });
    tags.add(tag);
    n++;
  });
  if (n === 0) throw new Error(`${path}: the run file has no lines ("qid Q0 docid rank score tag")`);
  return { queries, tags: [...tags], lines: n };
}

/** One query's documents in evaluation order. */
export function rankedDocIds(lines: readonly RunLine[], order: 'trec_eval' | 'rank'): string[] {
  const sorted = [...lines].sort(
    order === 'rank'
      ? (a, b) => a.rank - b.rank
      : (a, b) => (b.score !== a.score ? b.score - a.score : a.docId < b.docId ? 1 : a.docId > b.docId ? -1 : 0),
  );
  return sorted.map((l) => l.docId);
}

export interface TrecRunScore {
  task: string;
  run: string;
  qrels: string;
  tags: string[];
  order: 'trec_eval' | 'rank';
  /** Queries averaged: in the qrels with at least one relevant document (and in the run, with `missing: 'skip'`). */
  nEvaluated: number;
  /** Qrels queries with relevant documents and no line in the run: scored 0 (trec_eval -c), or left out with `missing: 'skip'`. */
  missingFromRun: string[];
  /** Run queries the qrels do not judge: not scored (as trec_eval). */
  notInQrels: string[];
  /** Qrels queries without a relevant document: not scored. */
  excludedNoRelevant: string[];
  /** Longest ranking in the run. */
  k: number;
  cutoffs: number[];
  metrics: Record<string, number>;
  perQuery: { queryId: string; firstRelevantRank: number | null; nRelevant: number; nRetrieved: number; values: Record<string, number> }[];
  createdAt: string;
}

/**
 * Scores a run file against a qrels file. `missing: 'zero'` (default) counts a judged query the run
 * forgot as a miss, like `trec_eval -c`; 'skip' leaves it out, like trec_eval without -c and
 * pytrec_eval.
 */
export async function scoreTrecRun(opts: { run: string; qrels: string; cutoffs?: readonly number[]; order?: 'trec_eval' | 'rank'; missing?: 'zero' | 'skip'; name?: string }): Promise<TrecRunScore> {
  const [run, qrels] = await Promise.all([readTrecRun(opts.run), readQrels(opts.qrels)]);
  return scoreRun(run, qrels, { ...opts, qrelsName: opts.qrels });
}

/** The same on parsed inputs. */
export function scoreRun(run: TrecRun, qrels: Qrels, opts: { run: string; qrelsName: string; cutoffs?: readonly number[]; order?: 'trec_eval' | 'rank'; missing?: 'zero' | 'skip'; name?: string }): TrecRunScore {
  const order = opts.order ?? 'trec_eval';
  const cutoffs = [...(opts.cutoffs ?? [1, 10, 100])];
  const relevant = (qid: string) => [...(qrels.get(qid)?.values() ?? [])].some((r) => r > 0);
  const judged = [...qrels.keys()];
  const missingFromRun = judged.filter((q) => relevant(q) && !run.queries.has(q));
  const notInQrels = [...run.queries.keys()].filter((q) => !qrels.has(q));
  const rankings = new Map<string, string[]>();
  for (const [qid, lines] of run.queries) if (qrels.has(qid)) rankings.set(qid, rankedDocIds(lines, order));
  const scoredQrels = new Map([...qrels].filter(([qid]) => opts.missing !== 'skip' || run.queries.has(qid)));
  const m = evaluateRun(rankings, scoredQrels, cutoffs);
  return {
    task: opts.name ?? `${opts.run.split('/').pop()} vs ${opts.qrelsName.split('/').pop()}`,
    run: opts.run,
    qrels: opts.qrelsName,
    tags: run.tags,
    order,
    nEvaluated: m.nEvaluated,
    missingFromRun,
    notInQrels,
    excludedNoRelevant: m.excludedNoRelevant,
    k: Math.max(0, ...[...run.queries.values()].map((l) => l.length)),
    cutoffs,
    metrics: m.metrics,
    perQuery: [...m.perQuery].map(([queryId, q]) => ({ queryId, firstRelevantRank: q.firstRelevantRank, nRelevant: q.nRelevant, nRetrieved: rankings.get(queryId)?.length ?? 0, values: q.values })),
    createdAt: new Date().toISOString(),
  };
}
