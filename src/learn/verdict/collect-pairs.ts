/**
 * What `veracite tune-verdict` fits the verdict calibration on: every (claim, cited abstract) pair of
 * SciFact TRAIN (oracle setting; gold SUPPORT/CONTRADICT/NEI), plus each claim paired with another claim's
 * cited abstract (gold NOT ENOUGH INFO: the relevance gate must learn what "about something else" looks
 * like). For each pair: the ColumbiaNLP items (per-sentence entailment) and the concat item, with the
 * best evidence score as relevance and the abstract's claim coverage (src/verify/coverage.ts); the concat
 * item also with its twin margin (the joined evidence read against the claim's counter-claims,
 * src/verify/counter-claims.ts).
 */
import type { Verifier } from '../../verify/verifier.js';
import type { LabelledPairs } from './fit-verdict.js';
import type { Label } from '../../verify/types.js';
import { counterClaims, counterPairs, splitCounterReads } from '../../verify/counter-claims.js';

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
  counts: { oracle: number; shuffled: number; retrieved: number };
}

/** Retrieval depth searched for uncited abstracts: the open setting's (SciFact's VeriSci reads the top 3). */
const RETRIEVED_DEPTH = 3;

/** `verifier` must use the columbia rule (so that each evidence sentence carries its entailment probabilities). */
export async function collectVerdictItems(
  verifier: Verifier,
  claims: readonly GoldClaim[],
  opts: {
    shuffled?: boolean;
    /**
     * Per claim, this many of the abstracts the verifier's retriever ranks in its top 3 but the claim does
     * not cite, as NOT ENOUGH INFO: the negatives `verify` and the open setting meet (same topic, other
     * finding), which shuffled abstracts (another subject) do not teach the gate. 0 by default.
     */
    retrieved?: number;
    onProgress?: (done: number, total: number) => void;
  } = {},
): Promise<VerdictItems> {
  if (verifier.config.verdict.rule !== 'columbia') throw new Error('collectVerdictItems needs a verifier with the columbia rule (per-sentence entailment probabilities)');
  type Job = { claim: GoldClaim; docIds: string[]; shuffled: boolean; retrieved: boolean };
  const jobs: Job[] = claims.map((c) => ({ claim: c, docIds: c.cited_doc_ids.map(String), shuffled: false, retrieved: false }));
  if (opts.shuffled ?? true) for (const s of shuffledPairs(claims)) jobs.push({ claim: s.claim, docIds: [s.docId], shuffled: true, retrieved: false });
  let retrieved = 0;
  if (opts.retrieved) {
    for (const c of claims) {
      const own = new Set(c.cited_doc_ids.map(String));
      const found = await verifier.retriever.search(c.claim, { k: RETRIEVED_DEPTH });
      const docIds = [...new Set(found.documents.map((d) => d.docId))].filter((d) => !own.has(d)).slice(0, opts.retrieved);
      if (docIds.length) jobs.push({ claim: c, docIds, shuffled: false, retrieved: true });
      retrieved += docIds.length;
    }
  }
  const columbia: LabelledPairs[] = [];
  const concat: LabelledPairs[] = [];
  for (const [i, job] of jobs.entries()) {
    const verdicts = await verifier.verifyEachDocument(job.claim.claim, job.docIds);
    for (const v of verdicts) {
      const gold = job.shuffled || job.retrieved ? 'NOT ENOUGH INFO' : (FROM_SCIFACT[job.claim.evidence[v.docId]?.[0]?.label ?? ''] ?? 'NOT ENOUGH INFO');
      const relevance = v.evidence.length ? Math.max(...v.evidence.map((e) => e.score)) : 0;
      const kind = { shuffled: job.shuffled, ...(job.retrieved ? { retrieved: true } : {}), claim: job.claim.claim };
      columbia.push({ evidence: v.evidence.map((e) => e.entailment!).filter(Boolean), gold, relevance, coverage: v.coverage, scores: v.evidence.map((e) => e.score), ...kind });
      const premise = v.evidence.map((e) => e.text).join(' ');
      // Read as the verifier reads the joined sentences, so that the fit sees what verify decides on.
      const counters = premise ? counterClaims(job.claim.claim) : [];
      const [reading] = premise ? splitCounterReads(await verifier.readEntailment(counterPairs(job.claim.claim, [premise], counters)), 1, counters) : [];
      concat.push({ evidence: reading ? [reading.claim] : [], gold, relevance, coverage: v.coverage, twinMargin: reading?.margin ?? 0, ...kind });
    }
    opts.onProgress?.(i + 1, jobs.length);
  }
  return { columbia, concat, counts: { oracle: claims.length, shuffled: jobs.filter((j) => j.shuffled).length, retrieved } };
}
