/**
 * An audit job as persisted and served. The article input is stored beside the job (`<id>.input.json`,
 * written once) so that the job file, rewritten after every citation, stays small.
 */
import type { z } from 'zod';
import type { CitationView } from '../../audit/citation-view.js';
import type { JobResponse } from '../schemas.js';

export type AuditJob = Omit<z.infer<typeof JobResponse>, 'results'> & {
  results: CitationView[];
  /** sha256 of the input: a re-submitted interrupted job is found by it and resumed. */
  inputHash: string;
};
export type JobStatus = AuditJob['status'];

export interface AuditJobInput {
  kind: 'wikitext' | 'html' | 'url';
  /** Wikitext or HTML. */
  text?: string;
  url?: string;
  title?: string;
}

export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['done', 'failed', 'interrupted']);

/** The job as the API returns it (no internal fields). */
export function publicJob(job: AuditJob, withResults = true): Omit<AuditJob, 'inputHash' | 'results'> & { results?: AuditJob['results'] } {
  const { inputHash: _h, results, ...rest } = job;
  return withResults ? { ...rest, results } : rest;
}
