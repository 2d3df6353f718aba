/**
 * The audit's premise for each citation, as audit/support.ts judgeSupport reads a cited page: the evidence
 * scorer's best sentences of the page (scoreDocuments with the given scoring), joined; the hypothesis is the
 * claim alone (query context "none", as the audit calibration). For the scripts that choose an engine's
 * settings on held-out domains (mix-weight.ts, premise-choice.ts).
 */
import { verificationQuery } from '../../src/audit/query.js';
import { DEFAULT_SCORING, scoreDocuments, type ScoringConfig } from '../../src/audit/score-document.js';
import type { WiceClaim } from '../../src/eval/run-citation-detection.js';
import type { EntailmentPair, PairScorer } from '../../src/models/types.js';

export async function auditPremises(scorer: PairScorer, claims: readonly WiceClaim[], scoring: ScoringConfig = DEFAULT_SCORING): Promise<EntailmentPair[]> {
  const out: EntailmentPair[] = [];
  for (let i = 0; i < claims.length; i += 8) {
    const chunk = claims.slice(i, i + 8);
    const queries = chunk.map((c) => verificationQuery({ claim: c.claim, context: c.context, articleTitle: c.title }, 'none'));
    const scores = await scoreDocuments(scorer, chunk.map((c, k) => ({ query: queries[k]!, doc: c.doc })), scoring);
    scores.forEach((r, k) => out.push({ premise: r.evidence.map((e) => e.text).join(' '), hypothesis: queries[k]! }));
  }
  return out;
}
