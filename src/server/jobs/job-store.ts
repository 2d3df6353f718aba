/**
 * Audit jobs on disk, in `<dataDir>/jobs/`: per job a small JSON file (status, progress, provenance; written
 * atomically, src/util/atomic-file.ts) and its results as JSON lines in `<id>.results.jsonl`, each audited
 * citation appended once. Writes are coalesced (at most one in flight per job, the latest state next), so a
 * crash loses at most the citations finished since the last write. Rewriting one file with every result
 * after each citation cost a 7,000-citation audit seconds of event loop per write (issue 35).
 *
 * On open, a job left `queued` or `running` by a server that stopped without finishing it (kill -9,
 * power loss) is marked `interrupted`: its finished citations are kept, and submitting the same input
 * again resumes it from there (job-runner.ts).
 */
import { mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FINAL_STATUSES, type AuditJob, type AuditJobInput } from './job-types.js';
import { isTempFile, writeFileAtomic, writeJsonAtomic } from '../../util/atomic-file.js';
import type { CitationView } from '../../audit/citation-view.js';

const INPUT_SUFFIX = '.input.json';
const RESULTS_SUFFIX = '.results.jsonl';
export const INTERRUPTED_MESSAGE = 'the server stopped before the job finished; submit the same input again to resume it';

function ignoreMissing(e: NodeJS.ErrnoException): void {
  if (e.code !== 'ENOENT') throw e;
}

interface Pending {
  writing: Promise<void>;
  again: boolean;
}

export class JobStore {
  private readonly jobs = new Map<string, AuditJob>();
  private readonly pending = new Map<string, Pending>();
  /** Results already in each job's results file. */
  private readonly persisted = new Map<string, number>();

  private constructor(readonly dir: string) {}

  static async open(dataDir: string): Promise<JobStore> {
    const store = new JobStore(join(dataDir, 'jobs'));
    await mkdir(store.dir, { recursive: true });
    const names = await readdir(store.dir);
    for (const name of names) {
      const path = join(store.dir, name);
      if (isTempFile(name)) {
        await unlink(path).catch(() => undefined); // a write that never reached its rename
        continue;
      }
      if (!name.endsWith('.json') || name.endsWith(INPUT_SUFFIX)) continue;
      let job: AuditJob;
      try {
        job = JSON.parse(await readFile(path, 'utf8')) as AuditJob;
      } catch {
        continue; // not ours or unreadable; atomic writes never leave a half file
      }
      const results = await readResults(store.resultsPath(job.id));
      // a job file from before the results file kept its results inline: those are appended at the next save
      if (results) {
        job.results = results;
        store.persisted.set(job.id, results.length);
      } else job.results ??= [];
      job.done = job.results.length;
      store.jobs.set(job.id, job);
      if (!FINAL_STATUSES.has(job.status)) {
        job.status = 'interrupted';
        job.error = INTERRUPTED_MESSAGE;
        job.updatedAt = new Date().toISOString();
        await store.save(job);
      }
    }
    // An input whose job file is gone: a deletion stopped between its two unlinks, or a create stopped
    // before the job file was written. Nothing refers to it.
    for (const name of names) {
      if (name.endsWith(INPUT_SUFFIX) && !isTempFile(name) && !store.jobs.has(name.slice(0, -INPUT_SUFFIX.length))) {
        await unlink(join(store.dir, name)).catch(() => undefined);
      }
    }
    return store;
  }

  private jobPath(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private resultsPath(id: string): string {
    return join(this.dir, `${id}${RESULTS_SUFFIX}`);
  }

  /** The job's results file holds exactly `job.results` (after a resumed job dropped stale ones). */
  async replaceResults(job: AuditJob): Promise<void> {
    await this.pending.get(job.id)?.writing.catch(() => undefined);
    await writeFileAtomic(this.resultsPath(job.id), linesOf(job.results));
    this.persisted.set(job.id, job.results.length);
  }

  get(id: string): AuditJob | undefined {
    return this.jobs.get(id);
  }

  /** Newest first. */
  list(): AuditJob[] {
    return [...this.jobs.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** The newest interrupted job with this input, to resume. */
  findInterrupted(inputHash: string): AuditJob | undefined {
    return this.list().find((j) => j.status === 'interrupted' && j.inputHash === inputHash);
  }

  async create(job: AuditJob, input: AuditJobInput): Promise<void> {
    await writeJsonAtomic(join(this.dir, `${job.id}${INPUT_SUFFIX}`), input);
    // a resumed job starts with the interrupted one's results
    await writeFileAtomic(this.resultsPath(job.id), linesOf(job.results));
    this.persisted.set(job.id, job.results.length);
    this.jobs.set(job.id, job);
    await this.save(job);
  }

  /**
   * Deletes the job and its input (retention). A write still in flight for it finishes first, so it
   * cannot bring the file back. The job file goes first: a stop in between leaves only an orphan input,
   * which open() removes.
   */
  async delete(id: string): Promise<void> {
    if (!this.jobs.has(id)) return;
    await this.pending.get(id)?.writing.catch(() => undefined);
    await unlink(this.jobPath(id)).catch(ignoreMissing);
    await unlink(join(this.dir, `${id}${INPUT_SUFFIX}`)).catch(ignoreMissing);
    await unlink(this.resultsPath(id)).catch(ignoreMissing);
    this.jobs.delete(id);
    this.persisted.delete(id);
  }

  async readInput(id: string): Promise<AuditJobInput> {
    return JSON.parse(await readFile(join(this.dir, `${id}${INPUT_SUFFIX}`), 'utf8')) as AuditJobInput;
  }

  /**
   * Persists the job's current state. Calls made while a write is in flight collapse into one more
   * write of the latest state; the promise resolves once a write that includes this call's state is done.
   */
  save(job: AuditJob): Promise<void> {
    const p = this.pending.get(job.id);
    if (p) {
      p.again = true;
      return p.writing;
    }
    const entry: Pending = { writing: Promise.resolve(), again: false };
    entry.writing = (async () => {
      try {
        do {
          entry.again = false;
          // new results first (appended, the file synced), then the small job file that counts them
          const from = this.persisted.get(job.id) ?? 0;
          if (job.results.length > from) {
            const fresh = job.results.slice(from);
            await appendSynced(this.resultsPath(job.id), linesOf(fresh));
            this.persisted.set(job.id, from + fresh.length);
          }
          const { results: _results, ...small } = job;
          await writeJsonAtomic(this.jobPath(job.id), small);
        } while (entry.again);
      } finally {
        this.pending.delete(job.id);
      }
    })();
    this.pending.set(job.id, entry);
    return entry.writing;
  }

  /** Waits for every write in flight. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending.values()].map((p) => p.writing));
  }
}

function linesOf(results: readonly CitationView[]): string {
  return results.map((r) => `${JSON.stringify(r)}\n`).join('');
}

async function appendSynced(path: string, text: string): Promise<void> {
  const fh = await open(path, 'a');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** A results file's citations; a last line cut short by a crash is dropped. Undefined when there is no file. */
async function readResults(path: string): Promise<CitationView[] | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const out: CitationView[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as CitationView);
    } catch {
      break; // a torn append: what follows it was never acknowledged
    }
  }
  return out;
}
