/**
 * Runs audit jobs: a bounded queue, `concurrency` jobs at a time, per-citation progress persisted and
 * broadcast to subscribers (the SSE route), and a shutdown that lets running jobs finish within a grace
 * period and persists the rest as interrupted.
 *
 * Resuming: a submitted input identical to an interrupted job's (same sha256) starts a new job that
 * takes over the finished citations of the interrupted one and audits only the others.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadArticleInput } from '../../audit/article-input.js';
import type { DocumentReader } from '../../documents/document-reader.js';
import type { FetchPolicy } from '../../sources/http-fetch.js';
import type { AuditInput } from '../../audit/types.js';
import { checkCitationCap } from '../../audit/citation-cap.js';
import { DEFAULT_MAX_CITATIONS } from '../../app/settings.js';
import type { CitationView } from '../../audit/citation-view.js';
import type { AuditService } from '../audit-service.js';
import { OverloadedError, ShuttingDownError } from '../errors.js';
import { jobsToDelete, type RetentionPolicy } from './job-retention.js';
import { INTERRUPTED_MESSAGE, type JobStore } from './job-store.js';
import type { AuditJob, AuditJobInput } from './job-types.js';

export type JobEvent =
  | { type: 'status'; job: AuditJob }
  | { type: 'citation'; seq: number; done: number; total: number; result: CitationView }
  | { type: 'done'; job: AuditJob };

type Listener = (e: JobEvent) => void;

export interface JobRunnerOptions {
  concurrency: number;
  maxQueue: number;
  /** Time a job may keep running after abort before it is recorded as interrupted anyway. */
  abortWaitMs?: number;
  /** Finished jobs kept (job-retention.ts); without it, every job is kept. */
  retention?: RetentionPolicy;
  /** How often the age limit is applied besides after each finished job, ms (default hourly). */
  pruneEveryMs?: number;
  /** audit.maxCitations: a job whose article has more citations fails, naming the setting (default 2,000). */
  maxCitations?: number;
  /** Reads every article (a body, a URL's page, a resumed job's input) within the parse budgets. */
  reader: DocumentReader;
  /** The fetch policy for URL articles. */
  fetchPolicy?: FetchPolicy;
}

interface Running {
  job: AuditJob;
  ac: AbortController;
  settled: Promise<void>;
}

export function inputHash(input: AuditJobInput): string {
  return createHash('sha256')
    .update(JSON.stringify([input.kind, input.text ?? input.url ?? '', input.title ?? '']))
    .digest('hex');
}

export class JobRunner {
  private readonly queue: AuditJob[] = [];
  private readonly running = new Map<string, Running>();
  private readonly listeners = new Map<string, Set<Listener>>();
  /** Jobs whose final state was written (by the run or by shutdown): nothing may overwrite it. */
  private readonly finalised = new Set<string>();
  /** Articles read when their job was submitted (POST /v1/audits reads a body at once), by job id. */
  private readonly parsed = new Map<string, AuditInput>();
  private closing = false;
  private pruning: Promise<number> = Promise.resolve(0);
  private pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly store: JobStore,
    private readonly audit: AuditService,
    private readonly opts: JobRunnerOptions,
  ) {
    if (opts.retention) {
      // Jobs age while the server idles: the age limit cannot wait for the next finished job.
      this.pruneTimer = setInterval(() => void this.prune().catch(() => undefined), opts.pruneEveryMs ?? 3_600_000);
      this.pruneTimer.unref();
    }
  }

  /**
   * Deletes the finished jobs the retention policy no longer keeps, with their inputs; never a queued or
   * running one. Calls run one after another. Resolves to the number deleted.
   */
  prune(now = Date.now()): Promise<number> {
    const policy = this.opts.retention;
    if (!policy) return Promise.resolve(0);
    this.pruning = this.pruning.catch(() => 0).then(async () => {
      // A running job counts as active until its final state is written (this prune may be that job's own).
      const active = new Set([...this.queue.map((j) => j.id), ...[...this.running.keys()].filter((id) => !this.finalised.has(id))]);
      const doomed = jobsToDelete(this.store.list(), policy, now, active);
      for (const job of doomed) await this.store.delete(job.id);
      return doomed.length;
    });
    return this.pruning;
  }

  stats(): { running: number; queued: number } {
    return { running: this.running.size, queued: this.queue.length };
  }

  get(id: string): AuditJob | undefined {
    return this.store.get(id);
  }

  /** Throws when a new job would be refused (shutting down, queue full): POST /v1/audits asks before it parses the body. */
  assertAccepting(): void {
    if (this.closing) throw new ShuttingDownError();
    if (this.queue.length >= this.opts.maxQueue) {
      throw new OverloadedError(`audit queue full (${this.queue.length} jobs waiting)`, 30 * (this.queue.length / this.opts.concurrency + 1));
    }
  }

  /** `parsed`: the input already read (within the parse budgets); else the job reads it when it runs. */
  async submit(input: AuditJobInput, parsed?: AuditInput): Promise<AuditJob> {
    this.assertAccepting();
    const now = new Date().toISOString();
    const hash = inputHash(input);
    const previous = this.store.findInterrupted(hash);
    const job: AuditJob = {
      id: randomUUID(),
      status: 'queued',
      createdAt: now,
      updatedAt: now,
      input: { kind: input.kind, bytes: Buffer.byteLength(input.text ?? input.url ?? '') },
      inputHash: hash,
      done: previous ? previous.results.length : 0,
      total: previous?.total ?? 0,
      results: previous ? previous.results.map((r) => ({ ...r })) : [],
    };
    if (input.title !== undefined) job.input.title = input.title;
    if (input.url !== undefined) job.input.url = input.url;
    if (previous) job.resumedFrom = previous.id;
    await this.store.create(job, input);
    if (parsed) this.parsed.set(job.id, parsed);
    this.queue.push(job);
    this.pump();
    return job;
  }

  /** Live events of one job; returns the unsubscribe function. */
  subscribe(id: string, fn: Listener): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.listeners.delete(id);
    };
  }

  private emit(id: string, e: JobEvent): void {
    for (const fn of this.listeners.get(id) ?? []) {
      try {
        fn(e);
      } catch {
        // a broken subscriber (closed socket) must not stop the job
      }
    }
  }

  private pump(): void {
    while (!this.closing && this.running.size < this.opts.concurrency && this.queue.length) {
      const job = this.queue.shift()!;
      const ac = new AbortController();
      const entry: Running = { job, ac, settled: Promise.resolve() };
      entry.settled = this.run(job, ac.signal).finally(() => {
        this.running.delete(job.id);
        this.pump();
      });
      this.running.set(job.id, entry);
    }
  }

  /**
   * An article as the audit reads it, in a parse worker within the budgets (documents/document-reader.ts),
   * and only up to one citation past audit.maxCitations (the parse stops there). A URL is fetched through
   * the sources' SSRF-guarded fetch first. POST /v1/audits reads a body with this before it answers, so a
   * document over budget is refused at once; a URL (and a resumed job's input) is read when its job runs.
   */
  read(input: AuditJobInput, signal?: AbortSignal): Promise<AuditInput> {
    const opts = { ...(input.title !== undefined ? { title: input.title } : {}), maxCitations: this.cap + 1 };
    const reader = this.opts.reader;
    if (input.kind === 'url') return loadArticleInput(input.url!, { ...opts, fetch: true, reader, ...(this.opts.fetchPolicy ? { fetchPolicy: this.opts.fetchPolicy } : {}) });
    return reader.article({ kind: input.kind === 'html' ? 'wikipedia-html' : 'wikipedia-wikitext', content: input.text!, origin: `api:${input.kind}`, ...opts }, signal);
  }

  private get cap(): number {
    return this.opts.maxCitations ?? DEFAULT_MAX_CITATIONS;
  }

  /** The job's article: the one read at submission, else its stored input read now; over the cap it fails the job, naming the setting. */
  private async parse(job: AuditJob, signal: AbortSignal): Promise<AuditInput> {
    const read = this.parsed.get(job.id) ?? (await this.read(await this.store.readInput(job.id), signal));
    this.parsed.delete(job.id);
    checkCitationCap(read, this.cap);
    return read;
  }

  private touch(job: AuditJob): void {
    job.updatedAt = new Date().toISOString();
    void this.store.save(job).catch(() => undefined); // the final save below is awaited and reports errors
  }

  private async run(job: AuditJob, signal: AbortSignal): Promise<void> {
    job.status = 'running';
    job.startedAt = new Date().toISOString();
    this.touch(job);
    this.emit(job.id, { type: 'status', job });
    try {
      const provenance = await this.audit.provenance?.();
      // A plain JSON copy: the job file stores it as data, not as the audit's typed config.
      if (provenance) job.provenance = JSON.parse(JSON.stringify(provenance)) as NonNullable<AuditJob['provenance']>;
      const article = await this.parse(job, signal);
      signal.throwIfAborted();
      const ids = new Set(article.citations.map((c) => c.id));
      // Resumed results that the (same) input still has; anything else would be a stale result.
      const kept = job.results.filter((r) => ids.has(r.citationId));
      if (kept.length !== job.results.length) {
        job.results = kept;
        await this.store.replaceResults(job);
      }
      job.done = job.results.length;
      job.total = article.citations.length;
      job.article = { title: article.title, citations: article.citations.length, uncitedClaims: article.uncitedClaims, skippedRefs: article.skippedRefs };
      this.touch(job);
      this.emit(job.id, { type: 'status', job });
      await this.audit.auditArticle(article, {
        signal,
        skip: new Set(job.results.map((r) => r.citationId)),
        onCitation: (result) => {
          if (this.finalised.has(job.id)) return;
          job.results.push(result);
          job.done = job.results.length;
          this.touch(job);
          this.emit(job.id, { type: 'citation', seq: job.done, done: job.done, total: job.total, result });
        },
      });
      signal.throwIfAborted();
      if (this.finalised.has(job.id)) return; // shutdown recorded it already
      job.status = 'done';
      delete job.error;
    } catch (e) {
      if (this.finalised.has(job.id)) return;
      if (signal.aborted) {
        job.status = 'interrupted';
        job.error = INTERRUPTED_MESSAGE;
      } else {
        job.status = 'failed';
        job.error = (e as Error).message;
      }
    }
    await this.finalise(job);
  }

  private async finalise(job: AuditJob): Promise<void> {
    if (this.finalised.has(job.id)) return;
    this.finalised.add(job.id);
    job.finishedAt = new Date().toISOString();
    job.updatedAt = job.finishedAt;
    await this.store.save(job);
    this.emit(job.id, { type: 'done', job });
    await this.prune().catch(() => undefined); // a deletion that failed is retried after the next job
  }

  /**
   * Stops taking jobs; queued jobs become interrupted at once; running jobs get `graceMs` to finish,
   * then are aborted, and are recorded as interrupted (with the citations they finished) whether or
   * not the audit notices the abort within `abortWaitMs`.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.closing = true;
    clearInterval(this.pruneTimer);
    for (const job of this.queue.splice(0)) {
      job.status = 'interrupted';
      job.error = INTERRUPTED_MESSAGE;
      await this.finalise(job);
    }
    const all = () => Promise.allSettled([...this.running.values()].map((r) => r.settled));
    if (this.running.size) await Promise.race([all(), sleep(graceMs)]);
    if (this.running.size) {
      for (const r of this.running.values()) r.ac.abort(new Error('server shutting down'));
      await Promise.race([all(), sleep(this.opts.abortWaitMs ?? 3000)]);
      for (const r of [...this.running.values()]) {
        if (this.finalised.has(r.job.id)) continue;
        r.job.status = 'interrupted';
        r.job.error = INTERRUPTED_MESSAGE;
        await this.finalise(r.job);
      }
    }
    await this.pruning.catch(() => undefined);
    await this.store.flush();
  }
}
