/**
 * What every route reads: the composition root and its pipeline (store, retriever, verifier), the audit
 * service, the job runner, the annotation store, the limiter and the server options. Built once by
 * start.ts, or by a test with whatever pieces it injects.
 */
import type { AnnotationStore } from '../annotations/annotation-store.js';
import type { Veracite } from '../app/veracite.js';
import type { Retriever } from '../retrieve/retriever.js';
import type { Store } from '../store/types.js';
import type { Verifier } from '../verify/verifier.js';
import type { AuditService } from './audit-service.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { Limiter } from './limiter.js';
import type { ResolvedServerOptions } from './options.js';
import type { SseHub } from './sse.js';

export interface ServerContext {
  options: ResolvedServerOptions;
  /** The composition root: settings (index, retrieval mode, live fetch) and every pipeline piece. */
  app: Veracite;
  store: Store;
  retriever: Retriever;
  verifier: Verifier;
  audit: AuditService;
  jobs: JobRunner;
  annotations: AnnotationStore;
  limiter: Limiter;
  sse: SseHub;
  startedAt: number;
  /** Set when shutdown begins (health reports it; new audits are refused). */
  shuttingDown: boolean;
}
