/**
 * Better sources for a citation (SIDE): query the index with the claim in its article context (SIDE's
 * sparse and dense queries: claim + title for BM25; title, section and the text before the citation for
 * the dense encoder), take the union of both candidate lists (bm25 alone when the index has no vectors),
 * drop the article itself and the existing source, and rerank the rest with the verification engine
 * together with the existing source. The scoring itself happens in the caller's one batched scorer call.
 */
import type { Document, Passage } from '../corpus/types.js';
import type { Retriever, SearchMode } from '../retrieve/retriever.js';
import type { Store } from '../store/types.js';
import { exclusionReason, type ExclusionContext } from './exclusions.js';
import type { DocumentScore } from './score-document.js';
import type { AuditCitation, AuditConfig, Recommendations, Suggestion } from './types.js';

export interface Candidate {
  doc: Document;
  firstStageRank: number;
  passages: Passage[];
}

export interface CandidateSet {
  mode: SearchMode;
  queries: { sparse: string; dense: string };
  excluded: Recommendations['excluded'];
  candidates: Candidate[];
  /** Candidates found by search: each one's provider, query and ready citation, by document id. */
  found?: ReadonlyMap<string, Pick<Suggestion, 'foundBy' | 'template' | 'accessDate'>>;
  /** Search's queries and failures, for the report. */
  search?: Recommendations['search'];
}

export async function retrieveCandidates(
  retriever: Retriever,
  store: Store,
  citation: AuditCitation,
  exclusion: ExclusionContext,
  cfg: AuditConfig['recommend'],
  mode: SearchMode,
  signal?: AbortSignal,
): Promise<CandidateSet> {
  // A few extra documents make room for the excluded ones (the article, the existing source).
  const res = await retriever.search(citation, { k: cfg.candidates + 4, mode, ...(signal ? { signal } : {}) });
  const docs = new Map((await store.getDocuments(res.documents.map((d) => d.docId))).map((d) => [d.id, d]));
  const excluded: Recommendations['excluded'] = [];
  const candidates: Candidate[] = [];
  for (const ranked of res.documents) {
    const doc = docs.get(ranked.docId);
    if (!doc) continue;
    const why = exclusionReason(doc, exclusion);
    if (why) {
      excluded.push({ docId: doc.id, title: doc.title, reason: why });
      continue;
    }
    if (candidates.length >= cfg.candidates) continue;
    candidates.push({ doc, firstStageRank: ranked.rank, passages: ranked.passages.slice(0, cfg.passagesPerCandidate).map((p) => p.passage) });
  }
  return { mode, queries: res.queries, excluded, candidates };
}

/** Source-ranker scores of the existing source and of each candidate (parallel to `set.candidates`). */
export interface RankerScores {
  rankedBy: string;
  existing: number | undefined;
  candidates: readonly number[];
}

/**
 * Orders the scored candidates and keeps those ranked above the existing source (all of them, best first,
 * when the existing source has no score: dead, not found...). The order is the source ranker's when one is
 * given, else the verification engine's score. With a flag threshold, a candidate that would itself be
 * flagged (on the score the threshold applies to) is not offered as a better source.
 */
export function rankSuggestions(
  set: CandidateSet,
  scores: readonly DocumentScore[],
  existingScore: number | undefined,
  cfg: AuditConfig['recommend'],
  flag?: { threshold: number; onRankerScore: boolean },
  ranker?: RankerScores,
): Recommendations {
  const scored = set.candidates
    .map((c, i) => ({ c, s: scores[i]!, r: ranker?.candidates[i] }))
    .filter((x) => x.s.score !== undefined)
    .map(({ c, s, r }): Suggestion => {
      const out: Suggestion = {
        docId: c.doc.id,
        title: c.doc.title,
        score: s.score!,
        // Without a ranker, the first-stage rank only breaks near-ties when its weight is small.
        rerankScore: r ?? s.score! + cfg.firstStageWeight / c.firstStageRank,
        firstStageRank: c.firstStageRank,
        evidence: s.evidence,
      };
      if (c.doc.url) out.url = c.doc.url;
      if (s.best) out.bestPassage = s.best;
      return out;
    })
    .sort((a, b) => b.rerankScore - a.rerankScore || a.firstStageRank - b.firstStageRank);
  const rec: Recommendations = { mode: set.mode, queries: set.queries, candidates: set.candidates.length, excluded: set.excluded, rankedBy: ranker?.rankedBy ?? 'verification', suggestions: [] };
  const acceptable = (s: Suggestion) => !flag || (flag.onRankerScore && ranker ? s.rerankScore : s.score) > flag.threshold;
  if (existingScore === undefined) {
    rec.suggestions = scored.filter(acceptable).slice(0, cfg.suggestions);
    return rec;
  }
  const existingKey = ranker ? ranker.existing : existingScore;
  const better = existingKey === undefined ? scored : scored.filter((s) => s.rerankScore > existingKey);
  rec.existingRank = better.length + 1;
  rec.suggestions = better.filter(acceptable).slice(0, cfg.suggestions);
  return rec;
}
