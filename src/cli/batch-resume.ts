/**
 * Resuming a batch run (`verify --claims`, `check --pairs`): which input lines its --out file already answers,
 * and when resuming into that file would be wrong.
 *
 * A record counts as done when --out holds a line with its id AND the same claim. Matching the id alone, a
 * second claims file whose ids happen to overlap (SciFact's "1", "2", ... or line numbers standing in for
 * missing ids) was silently skipped: "1 already in verdicts.jsonl" for a claim never checked. So:
 * - two input lines with one id are refused before any model loads (the second could never be resumed);
 * - an id whose stored claim differs is refused, naming both, with what to do (another --out);
 * - verdicts made with another configuration are not mixed into one file (checked on the first new answer,
 *   the first moment this run's configuration hash is known).
 */
import { readFile, truncate } from 'node:fs/promises';
import { BadDataError, UsageError } from '../util/exit-codes.js';

/** What --out says of one id it answers. */
export interface DoneRecord {
  /** 1-based line in --out. */
  line: number;
  claim?: string;
  /** The stored answer's label (verify: SUPPORTS / REFUTES / NOT ENOUGH INFO), for a summary over the whole file. */
  label?: string;
  configHash?: string;
}

/** One input record, as the resume check needs it. */
export interface BatchItem {
  id: string;
  claim: string;
  /** Where it was read, e.g. `claims.jsonl:3`. */
  where: string;
}

/** Claims compared as people read them: whitespace runs are one space. */
const sameClaim = (a: string, b: string): boolean => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

const short = (s: string, n = 80): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The records --out already holds, by id; drops a half-written last line left by a crash (truncates the file to the last whole line). */
export async function completedRecords(out: string): Promise<Map<string, DoneRecord>> {
  let text: string;
  try {
    text = await readFile(out, 'utf8');
  } catch {
    return new Map();
  }
  const done = new Map<string, DoneRecord>();
  let goodBytes = 0;
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    if (!raw.trim()) {
      goodBytes += Buffer.byteLength(raw) + 1;
      continue;
    }
    let r: { id?: unknown; claim?: unknown; label?: unknown; provenance?: { configHash?: unknown } };
    try {
      r = JSON.parse(raw) as typeof r;
    } catch {
      break;
    }
    goodBytes += Buffer.byteLength(raw) + 1;
    done.set(String(r.id), {
      line,
      ...(typeof r.claim === 'string' ? { claim: r.claim } : {}),
      ...(typeof r.label === 'string' ? { label: r.label } : {}),
      ...(typeof r.provenance?.configHash === 'string' ? { configHash: r.provenance.configHash } : {}),
    });
  }
  const bytes = Buffer.byteLength(text);
  if (goodBytes < bytes) await truncate(out, Math.min(goodBytes, bytes));
  return done;
}

/** Refuses input that cannot be resumed safely: one id on two lines, or an id --out answers for another claim. */
export function checkResumable(items: readonly BatchItem[], done: ReadonlyMap<string, DoneRecord>, out: string): void {
  const first = new Map<string, BatchItem>();
  for (const it of items) {
    const seen = first.get(it.id);
    if (seen) throw new BadDataError(`${it.where} field "id": "${short(it.id, 40)}" is also the id of ${seen.where}: each line needs its own id, since a resumed run skips the ids --out already answers (lines without an "id" are numbered by line)`);
    first.set(it.id, it);
  }
  for (const it of items) {
    const d = done.get(it.id);
    if (d?.claim !== undefined && !sameClaim(d.claim, it.claim)) {
      throw new UsageError(
        `${out} already answers id "${short(it.id, 40)}" (its line ${d.line}) for another claim: "${short(d.claim)}", not ${it.where}'s "${short(it.claim)}". ` +
          `It was written from another input file: give --out a new file, or delete ${out} to start again`,
      );
    }
  }
}

/** The configuration hashes --out's answers were made with. */
export function storedConfigs(done: ReadonlyMap<string, DoneRecord>): Set<string> {
  return new Set([...done.values()].flatMap((d) => (d.configHash ? [d.configHash] : [])));
}

/**
 * Admits this run's configuration hash into `stored` (the hashes --out's answers were made with), or refuses
 * to add an answer made with another configuration (models, engine, retrieval settings) to a file that has some.
 */
export function admitConfig(stored: Set<string>, configHash: string, out: string): void {
  if (stored.size > 0 && !stored.has(configHash)) {
    throw new UsageError(
      `${out} holds answers made with another configuration (config ${[...stored].join(', ')}; this run's is ${configHash}: other models, engine or options). ` +
        `Resuming would mix the two in one file: run with the first run's options, or give --out a new file`,
    );
  }
  stored.add(configHash);
}

/**
 * While a batch runs, Ctrl-C says what was kept and how to go on, before the process ends with 130 as
 * any interrupted command does. Returns the function that removes the handler.
 */
export function sayOnInterrupt(out: string, progress: () => string): () => void {
  const onSigint = () => {
    process.stderr.write(`\nstopped (Ctrl-C) after ${progress()}; every answer so far is in ${out}: run the same command again to resume\n`);
    process.off('SIGINT', onSigint);
    process.kill(process.pid, 'SIGINT');
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}
