/**
 * Retrieval evaluation inputs: queries and qrels files (BEIR layout), plus built-in tasks derived from the
 * SciFact claims and WiCE retrieval queries. Every malformed record raises a RecordError naming file, line, field.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RecordError } from '../corpus/types.js';
import type { ClaimInContext } from '../retrieve/query-building.js';
import { datasetName } from './dataset-name.js';
import { missingDocProblems, type DocIdLookup, type DocReference } from './doc-ids.js';
import { DataProblemsError } from './data-problems.js';

export interface EvalQuery {
  id: string;
  /** What the engine searches with (BEIR `text`, or `query` / `claim`). */
  text: string;
  /** Claim-in-context queries (WiCE): the passage around the claim, the article title and section. */
  context?: string;
  title?: string;
  section?: string;
  /** Every other field of the record, untouched (e.g. SciFact `evidence`, WiCE `label`). */
  extra: Record<string, unknown>;
}

export interface EvalTask {
  /** What the data is called: the name given, else the queries file's name. */
  name: string;
  queries: EvalQuery[];
  /** query id -> doc id -> relevance. */
  qrels: Map<string, Map<string, number>>;
}

interface JsonRecord {
  line: number;
  value: Record<string, unknown>;
}

/** Parse a JSONL file; blank lines are skipped but still counted so line numbers match an editor. */
async function readJsonl(file: string): Promise<JsonRecord[]> {
  const text = await readFile(file, 'utf8');
  const out: JsonRecord[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new RecordError(file, line, undefined, `invalid JSON: ${(e as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new RecordError(file, line, undefined, 'expected a JSON object');
    }
    out.push({ line, value: value as Record<string, unknown> });
  });
  return out;
}

/** Ids may be numbers in the source (SciFact); they are always compared as strings. */
function idField(rec: JsonRecord, file: string, names: readonly string[]): string {
  for (const name of names) {
    const v = rec.value[name];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    throw new RecordError(file, rec.line, name, `must be a non-empty string or a number, got ${JSON.stringify(v)}`);
  }
  throw new RecordError(file, rec.line, names.join('|'), 'missing');
}

function optionalString(rec: JsonRecord, file: string, name: string): string | undefined {
  const v = rec.value[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new RecordError(file, rec.line, name, `must be a string, got ${typeof v}`);
  return v;
}

const ID_FIELDS = ['_id', 'id'] as const;
const TEXT_FIELDS = ['text', 'query', 'claim'] as const;
const KNOWN_FIELDS = new Set<string>([...ID_FIELDS, ...TEXT_FIELDS, 'context', 'title', 'wiki_title', 'section']);

function parseQuery(rec: JsonRecord, file: string): EvalQuery {
  const id = idField(rec, file, ID_FIELDS);
  let text: string | undefined;
  for (const name of TEXT_FIELDS) {
    text = optionalString(rec, file, name);
    if (text !== undefined) break;
  }
  if (text === undefined || text.trim() === '') {
    throw new RecordError(file, rec.line, TEXT_FIELDS.join('|'), 'missing or empty query text');
  }
  const q: EvalQuery = { id, text, extra: {} };
  const context = optionalString(rec, file, 'context');
  const title = optionalString(rec, file, 'title') ?? optionalString(rec, file, 'wiki_title');
  const section = optionalString(rec, file, 'section');
  if (context !== undefined) q.context = context;
  if (title !== undefined) q.title = title;
  if (section !== undefined) q.section = section;
  for (const [k, v] of Object.entries(rec.value)) if (!KNOWN_FIELDS.has(k)) q.extra[k] = v;
  return q;
}

function checkUnique(ids: Set<string>, id: string, file: string, line: number, field: string): void {
  if (ids.has(id)) throw new RecordError(file, line, field, `duplicate query id "${id}"`);
  ids.add(id);
}

/** Read queries JSONL: `{_id|id, text|query|claim, context?, title?|wiki_title?, section?, ...extra}`. */
export async function readQueries(file: string): Promise<EvalQuery[]> {
  const seen = new Set<string>();
  return (await readJsonl(file)).map((rec) => {
    const q = parseQuery(rec, file);
    checkUnique(seen, q.id, file, rec.line, '_id');
    return q;
  });
}

function addQrel(qrels: Map<string, Map<string, number>>, qid: string, docId: string, rel: number): void {
  let m = qrels.get(qid);
  if (!m) qrels.set(qid, (m = new Map()));
  // Last row wins, as when pytrec_eval builds its qrels dict.
  m.set(docId, rel);
}

function parseRelevance(raw: string, file: string, line: number, field: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) throw new RecordError(file, line, field, `not a number: "${raw}"`);
  return n;
}

/**
 * Qrels as BEIR TSV (`query-id<TAB>corpus-id<TAB>score`, header optional) or, with 4 whitespace-separated
 * columns, TREC style (`qid iter docid rel`).
 */
function parseQrelsTsv(file: string, text: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  let first = true;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    const cols = raw.includes('\t') ? raw.split('\t').map((c) => c.trim()) : raw.trim().split(/\s+/);
    const isFirst = first;
    first = false;
    // Header: a first row whose score column is not numeric (BEIR writes "query-id corpus-id score").
    if (isFirst && cols.length >= 3 && !Number.isFinite(Number(cols[cols.length - 1]))) return;
    if (cols.length !== 3 && cols.length !== 4) {
      throw new RecordError(file, line, undefined, `expected 3 columns (query-id, corpus-id, score), got ${cols.length}`);
    }
    const trec = cols.length === 4;
    const qid = cols[0];
    const docId = trec ? cols[2] : cols[1];
    if (qid === '') throw new RecordError(file, line, 'query-id', 'empty id');
    if (docId === '') throw new RecordError(file, line, 'corpus-id', 'empty id');
    addQrel(qrels, qid, docId, parseRelevance(trec ? cols[3] : cols[2], file, line, 'score'));
  });
  return qrels;
}

async function parseQrelsJsonl(file: string): Promise<Map<string, Map<string, number>>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const rec of await readJsonl(file)) {
    const qid = idField(rec, file, ['query_id']);
    const docId = idField(rec, file, ['doc_id']);
    const rel = rec.value['relevance'];
    if (typeof rel !== 'number' || !Number.isFinite(rel)) {
      throw new RecordError(file, rec.line, 'relevance', `must be a number, got ${JSON.stringify(rel)}`);
    }
    addQrel(qrels, qid, docId, rel);
  }
  return qrels;
}

/** Read qrels; the format follows the extension (.jsonl/.json -> JSONL) or, failing that, the first character. */
export async function readQrels(file: string): Promise<Map<string, Map<string, number>>> {
  if (/\.jsonl?$/i.test(file)) return parseQrelsJsonl(file);
  const text = await readFile(file, 'utf8');
  if (!/\.(tsv|txt|qrels)$/i.test(file) && text.trimStart().startsWith('{')) return parseQrelsJsonl(file);
  return parseQrelsTsv(file, text);
}

/**
 * SciFact as BEIR builds it: queries are the claims, relevant docs are `cited_doc_ids` with relevance 1
 * (claims_dev.jsonl gives the 300 queries / 339 qrels of BEIR's SciFact test split).
 */
export async function scifactTask(claimsPath: string, name = datasetName(claimsPath)): Promise<EvalTask> {
  const queries: EvalQuery[] = [];
  const qrels = new Map<string, Map<string, number>>();
  const seen = new Set<string>();
  for (const rec of await readJsonl(claimsPath)) {
    const q = parseQuery(rec, claimsPath);
    checkUnique(seen, q.id, claimsPath, rec.line, 'id');
    const cited = rec.value['cited_doc_ids'];
    if (!Array.isArray(cited)) {
      throw new RecordError(claimsPath, rec.line, 'cited_doc_ids', 'missing or not an array (the test split has no gold)');
    }
    cited.forEach((d, i) => {
      if ((typeof d !== 'number' || !Number.isFinite(d)) && (typeof d !== 'string' || d === '')) {
        throw new RecordError(claimsPath, rec.line, `cited_doc_ids[${i}]`, `not a doc id: ${JSON.stringify(d)}`);
      }
      addQrel(qrels, q.id, String(d), 1);
    });
    queries.push(q);
  }
  return { name, queries, qrels };
}

/** WiCE retrieval queries (`id, claim, context, wiki_title, section, gold_doc_id`): one relevant doc per query. */
export async function wiceTask(queriesPath: string, name = datasetName(queriesPath)): Promise<EvalTask> {
  const queries: EvalQuery[] = [];
  const qrels = new Map<string, Map<string, number>>();
  const seen = new Set<string>();
  for (const rec of await readJsonl(queriesPath)) {
    const q = parseQuery(rec, queriesPath);
    checkUnique(seen, q.id, queriesPath, rec.line, 'id');
    const gold = idField(rec, queriesPath, ['gold_doc_id']);
    addQrel(qrels, q.id, gold, 1);
    queries.push(q);
  }
  return { name, queries, qrels };
}

/**
 * A task from a BEIR folder (`queries.jsonl`, `qrels/<split>.tsv`). Like BEIR's GenericDataLoader, only queries
 * that appear in the split's qrels are kept; qrels naming an unknown query are an error.
 */
export async function beirTask(dir: string, split = 'test', name?: string): Promise<EvalTask> {
  const qrelsPath = join(dir, 'qrels', `${split}.tsv`);
  const qrels = await readQrels(qrelsPath);
  const all = await readQueries(join(dir, 'queries.jsonl'));
  const queries = all.filter((q) => qrels.has(q.id));
  const known = new Set(queries.map((q) => q.id));
  for (const qid of qrels.keys()) {
    if (!known.has(qid)) throw new RecordError(qrelsPath, 0, 'query-id', `query "${qid}" is not in queries.jsonl`);
  }
  return { name: name ?? `${dir}:${split}`, queries, qrels };
}

/**
 * Write a task in BEIR layout: `queries.jsonl` (`{_id, text, metadata, context?, title?, section?}`) and
 * `qrels/test.tsv` with the BEIR header. BEIR itself only reads `_id` and `text`; the extra fields make the
 * files round-trip through `readQueries`.
 */
export async function writeBeirFiles(task: EvalTask, dir: string): Promise<{ queriesPath: string; qrelsPath: string }> {
  await mkdir(join(dir, 'qrels'), { recursive: true });
  const queriesPath = join(dir, 'queries.jsonl');
  const qrelsPath = join(dir, 'qrels', 'test.tsv');
  const lines = task.queries.map((q) => {
    const rec: Record<string, unknown> = { _id: q.id, text: q.text, metadata: {} };
    if (q.context !== undefined) rec['context'] = q.context;
    if (q.title !== undefined) rec['title'] = q.title;
    if (q.section !== undefined) rec['section'] = q.section;
    return JSON.stringify(rec);
  });
  await writeFile(queriesPath, lines.join('\n') + (lines.length ? '\n' : ''), 'utf8');
  const rows = ['query-id\tcorpus-id\tscore'];
  for (const [qid, docs] of task.qrels) {
    for (const [docId, rel] of docs) {
      if (/[\t\r\n]/.test(qid) || /[\t\r\n]/.test(docId)) {
        throw new Error(`id contains a tab or newline and cannot be written as TSV: ${JSON.stringify([qid, docId])}`);
      }
      rows.push(`${qid}\t${docId}\t${rel}`);
    }
  }
  await writeFile(qrelsPath, rows.join('\n') + '\n', 'utf8');
  return { queriesPath, qrelsPath };
}

/**
 * A query as the retriever reads it: claims with article context (WiCE) are searched as SIDE does (claim +
 * context, title, section); others as plain text. The context stays one string: the dense query is built
 * from its words, exactly as written.
 */
export function evalQueryInput(q: EvalQuery): string | ClaimInContext {
  if (q.context === undefined && q.title === undefined && q.section === undefined) return q.text;
  return {
    claim: q.text,
    ...(q.context !== undefined ? { context: [q.context] } : {}),
    ...(q.title !== undefined ? { articleTitle: q.title } : {}),
    ...(q.section !== undefined ? { sectionPath: [q.section] } : {}),
  };
}

/**
 * Fails, listing every one, when documents the qrels count as relevant are not in the index: such a query
 * can never be answered, and the figures would describe the index, not the engine.
 */
export async function checkQrelDocs(task: { name: string; queries: readonly EvalQuery[]; qrels: ReadonlyMap<string, ReadonlyMap<string, number>> }, lookup: DocIdLookup, where = 'the index', file = task.name): Promise<void> {
  const refs: DocReference[] = [];
  for (const q of task.queries) {
    for (const [docId, rel] of task.qrels.get(q.id) ?? []) {
      if (rel > 0) refs.push({ id: docId, file, line: 0, field: `query ${q.id}` });
    }
  }
  const missing = await missingDocProblems(refs, lookup, where);
  if (missing.length) throw new DataProblemsError(`queries "${task.name}"`, missing, 'Evaluate against an index built from the corpus these queries were judged on.');
}
