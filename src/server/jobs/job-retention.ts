/**
 * Which finished audit jobs to delete: the server keeps the newest `keepJobs` finished jobs and none
 * older than `maxAgeMs` (counted from when they finished), so the job folder, which holds each job's input
 * (up to the body limit) beside its results, stops growing. A queued or running job is never chosen.
 */
import { FINAL_STATUSES, type AuditJob } from './job-types.js';

export interface RetentionPolicy {
  keepJobs: number;
  maxAgeMs: number;
}

function finishedAt(job: AuditJob): number {
  return Date.parse(job.finishedAt ?? job.updatedAt ?? job.createdAt);
}

/** `jobs` in any order; `active`: ids that must stay whatever their recorded status says. */
export function jobsToDelete(jobs: readonly AuditJob[], policy: RetentionPolicy, now: number, active: ReadonlySet<string> = new Set()): AuditJob[] {
  const finished = jobs.filter((j) => FINAL_STATUSES.has(j.status) && !active.has(j.id)).sort((a, b) => finishedAt(b) - finishedAt(a) || b.createdAt.localeCompare(a.createdAt));
  return finished.filter((j, rank) => rank >= policy.keepJobs || now - finishedAt(j) > policy.maxAgeMs);
}
