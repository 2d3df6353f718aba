/**
 * What `veracite tune-verdict` fits the verdict calibration on: every (claim, cited abstract) pair of
 * SciFact TRAIN (oracle setting; gold SUPPORT/CONTRADICT/NEI), plus each claim paired with another claim's
 * cited abstract (gold NOT ENOUGH INFO: the relevance gate must learn what "about something else" looks
 * like). For each pair: the ColumbiaNLP items (per-sentence entailment) and the concat item, with the
 * best evidence score as relevance.
 */
import type { Verifier } from '../../verify/verifier.js';
import type { LabelledPairs } from './fit-verdict.js';
import type { Label } from '../../verify/types.js';

/** The fields of a SciFact claim this needs. */
export interface GoldClaim {
  claim: string;
  cited_doc_ids: (number | string)[];
  evidence: Record<string, { label: string }[]>;
}

const FROM_SCIFACT: Record<string, Label> = { SUPPORT: 'SUPPORTS', CONTRADICT: 'REFUTES' };

/**
 * Another claim's cited abstract for each claim (claim i takes claim i + offset's first cited abstract that
 * it does not cite itself): deterministic, and every abstract is one some claim really cites.
 */
export function shuffledPairs<C extends GoldClaim>(claims: readonly C[], offset = 7): { claim: C; docId: string }[] {
  const out: { claim: C; docId: string }[] = [];
  claims.forEach((c, i) => {
    const own = new Set(c.cited_doc_ids.map(String));
    for (let k = 0; k < claims.length; k++) {
      const other = claims[(i + offset + k) % claims.length]!;
      const doc = other.cited_doc_ids.map(String).find((d) => !own.has(d));
      if (doc && other.claim !== c.claim) {
        out.push({ claim: c, docId: doc });
        return;
      }
    }
  });
  return out;
}

export interface VerdictItems {
  columbia: LabelledPairs[];
  concat: LabelledPairs[];
  counts: { oracle: number; shuffled: number };
}

/** `verifier` must use the columbia rule (so that each evidence sentence carries its entailment probabilities). */
export async function collectVerdictItems(verifier: Verifier, claims: readonly GoldClaim[], opts: { shuffled?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<VerdictItems> {
  if (verifier.config.verdict.rule !== 'columbia') throw new Error('collectVerdictItems needs a verifier with the columbia rule (per-sentence entailment probabilities)');
  const jobs: { claim: GoldClaim; docIds: string[]; shuffled: boolean }[] = claims.map((c) => ({ claim: c, docIds: c.cited_doc_ids.map(String), shuffled: false }));
  if (opts.shuffled ?? true) for (const s of shuffledPairs(claims)) jobs.push({ claim: s.claim, docIds: [s.docId], shuffled: true });
  const columbia: LabelledPairs[] = [];
  const concat: LabelledPairs[] = [];
  const { entailment } = verifier.models;
  for (const [i, job] of jobs.entries()) {
    const verdicts = await verifier.verifyEachDocument(job.claim.claim, job.docIds);
    for (const v of verdicts) {
      const gold = job.shuffled ? 'NOT ENOUGH INFO' : (FROM_SCIFACT[job.claim.evidence[v.docId]?.[0]?.label ?? ''] ?? 'NOT ENOUGH INFO');
      const relevance = v.evidence.length ? Math.max(...v.evidence.map((e) => e.score)) : 0;
      columbia.push({ evidence: v.evidence.map((e) => e.entailment!).filter(Boolean), gold, relevance, scores: v.evidence.map((e) => e.score), shuffled: job.shuffled });
      const premise = v.evidence.map((e) => e.text).join(' ');
      concat.push({ evidence: premise ? await entailment.predict([{ premise, hypothesis: job.claim.claim }]) : [], gold, relevance, shuffled: job.shuffled });
    }
    opts.onProgress?.(i + 1, jobs.length);
  }
  return { columbia, concat, counts: { oracle: claims.length, shuffled: jobs.length - claims.length } };
}
