/**
 * The citation audit: for each citation, find the cited source's text, score how well it supports the
 * claim (max passage score from the verification engine), flag likely failed verification with a
 * calibrated threshold, and recommend better sources from the index.
 *
 * Per citation, one scorer call covers the existing source and every candidate: the trained head embeds
 * each distinct text once per call, and its memoising embedder carries vectors across citations (pages
 * cited many times, candidates shared by neighbouring claims). A few citations run at once so index
 * queries overlap scoring.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ModelInfo, PairScorer } from '../models/types.js';
import { configHash } from '../provenance/config-hash.js';
import { VERACITE_VERSION } from '../provenance/version.js';
import type { Retriever, SearchMode } from '../retrieve/retriever.js';
import type { SourceResolver } from '../sources/resolve-source.js';
import type { ResolvedSource } from '../sources/types.js';
import type { Store } from '../store/types.js';
import { PROBABILITY_MEANING, probabilityOf, type FlagRule } from './calibration.js';
import { reportPath } from '../util/report-path.js';
import { originalFromArchiveUrl } from '../sources/archive.js';
import { verificationQuery } from './query.js';
import type { Document } from '../corpus/types.js';
import type { Embedder } from '../models/types.js';
import type { Bm25Stats } from '../text/bm25-stats.js';
import { rankFeatures, type RankFeatureDeps } from './rank-features.js';
import { rankSuggestions, retrieveCandidates, type CandidateSet, type RankerScores } from './recommend.js';
import type { ExclusionContext } from './exclusions.js';
import { scoreDocuments, type DocumentScore, type ScoreJob } from './score-document.js';
import type { SourceRanker } from './source-ranker.js';
import { judgeSupport, type SupportModel } from './support.js';
import { pageSimilarity } from './page-similarity.js';
import { supportSignal, type SupportSignalWeights } from './support-signal.js';
import { coverageDetailOfDocument } from '../verify/coverage.js';
import { NO_BETTER_SOURCE, NO_BETTER_SOURCE_BY_SEARCH, type AuditCitation, type AuditConfig, type AuditInput, type AuditProvenance, type AuditReport, type AuditSummary, type CitationAudit, type SourceReport, type Verification } from './types.js';
import { urlDepth } from './url-depth.js';
import { BAND_THRESHOLDS, bandOf, citationBand, countByBand, decisionOf } from './bands.js';
import type { DecisionThresholds } from '../verify/decision.js';
import { standaloneClaim } from './standalone-claim.js';
import { documentKindOf } from './document-kind.js';
import { DEFAULT_AUDIT_CONFIG } from './audit-defaults.js';
import { languageProblem, readLanguage } from '../text/language.js';

// Defined in audit-defaults.ts (light: the settings read it).
export { DEFAULT_AUDIT_CONFIG };

export interface AuditDeps {
  scorer: PairScorer;
  resolver: SourceResolver;
  /** Index for recommendations (and provenance); without it, no suggestions. */
  store?: Store;
  retriever?: Retriever;
  /** The retrieval mode of the candidates (the composition root decided 'auto'). */
  retrievalMode?: SearchMode;
  /** Every model involved, for provenance (scorer, embedder). */
  models?: ModelInfo[];
  flag?: FlagRule | { reason: string };
  indexDir?: string;
  /** Orders the existing source and the candidates (rank-features.ts); without it, the engine's score does. */
  ranker?: RankerDeps;
  /**
   * NLI head + fitted verdict calibration (support.ts): gives each source a probability that it supports
   * the claim (low for a source whose best sentence misses the relevance gate), and fails sources whose
   * relevant evidence contradicts the claim in so many words.
   */
  support?: SupportModel;
  /**
   * Better sources from search instead of the index (`--suggest-from search`, app/search.ts): asked only for a
   * citation whose cited source is flagged, needs review or is not supported, once its own band is known.
   */
  searchCandidates?: (c: AuditCitation, exclusion: ExclusionContext, cfg: AuditConfig['recommend'], signal?: AbortSignal) => Promise<CandidateSet>;
  /**
   * The one decision's thresholds for this engine (verify/decision.ts): fitted on its own probabilities (a
   * model profile's `bands`, models/hub/profile.ts); default BAND_THRESHOLDS, fitted on the lite heads'.
   */
  thresholds?: DecisionThresholds;
}

/** Bands from worst to best: a source found by search is proposed only above the cited one's band. */
const BAND_ORDER: Record<string, number> = { 'could-not-check': 0, 'not-supported': 1, 'needs-review': 2, 'partly-supported': 3, supported: 4 };

/** Whether a citation's cited source calls for a better one from search: flagged, needs review, or not supported. */
export function wantsBetterSource(c: Pick<CitationAudit, 'verification' | 'band'>): boolean {
  const band = c.band?.band;
  return !!c.verification && (!!c.verification.flagged || !!c.verification.review || band === 'needs-review' || band === 'not-supported');
}

export interface RankerDeps {
  ranker: SourceRanker;
  /** BM25 statistics of the index (corpus-stats.ts). */
  stats: Bm25Stats;
  /** The ranker's sentence encoder (USE), for its `dense` feature. */
  embedder: Embedder;
  /** The index's passage vectors when `embedder` made them (rank-features.ts reuses them). */
  storedVectors?: RankFeatureDeps['storedVectors'];
}

export interface AuditProgress {
  done: number;
  total: number;
  last: CitationAudit;
}

export class CitationAuditor {
  readonly config: AuditConfig;
  constructor(
    private readonly deps: AuditDeps,
    config: Partial<AuditConfig> = {},
  ) {
    this.config = { ...DEFAULT_AUDIT_CONFIG, ...config, recommend: { ...DEFAULT_AUDIT_CONFIG.recommend, ...config.recommend } };
  }

  private get threshold(): number | undefined {
    const f = this.deps.flag;
    return f && 'threshold' in f ? f.threshold : undefined;
  }

  /**
   * Audits one citation. `resolved` skips source lookup (a caller that already holds the page text, e.g.
   * a pasted source, passes `{status: 'found', document, attempts: []}`). `signal` (a request's deadline,
   * a job's shutdown) stops the work between stages and reaches the retriever and the scorer; the promise
   * then rejects with its reason.
   */
  async auditCitation(cited: AuditCitation, resolvedSource?: ResolvedSource, signal?: AbortSignal): Promise<CitationAudit> {
    const first = await this.auditOnce(cited, resolvedSource, signal, false);
    // With search as the source of suggestions: searched only when the cited source's band calls for it, then
    // the citation is judged again with the candidates beside its source (the same decision as every band).
    if (!this.deps.searchCandidates || !this.config.recommend.enabled || !wantsBetterSource(first)) return first;
    const resolved = resolvedSource ?? (await this.deps.resolver.resolve(withClaimText(cited, this.config.claimText).source));
    return this.auditOnce(cited, resolved, signal, true);
  }

  private async auditOnce(cited: AuditCitation, resolvedSource: ResolvedSource | undefined, signal: AbortSignal | undefined, searched: boolean): Promise<CitationAudit> {
    const t0 = performance.now();
    signal?.throwIfAborted();
    // What is verified (claimText); the report keeps the citation's own claim and prefix.
    const c = withClaimText(cited, this.config.claimText);
    const resolved = resolvedSource ?? (await this.deps.resolver.resolve(c.source));
    signal?.throwIfAborted();
    const t1 = performance.now();
    const query = verificationQuery({ claim: c.claim, context: c.context, articleTitle: c.articleTitle }, this.config.queryContext);
    // The models and the index read English: a claim or a source in another language is not scored (could not
    // check, language) unless asked to (audit.anyLanguage).
    const language = pairLanguage(c.claim, resolved.document);
    const skip = !!language && !this.config.anyLanguage;
    const candidates = skip ? undefined : await this.candidates(c, resolved, signal, searched);
    signal?.throwIfAborted();
    const t2 = performance.now();

    const jobs: ScoreJob[] = [];
    if (resolved.document && !skip) jobs.push({ query, doc: resolved.document });
    for (const cand of candidates?.candidates ?? []) jobs.push({ query, doc: cand.doc, passages: cand.passages });
    const scores = jobs.length ? await scoreDocuments(this.deps.scorer, jobs, this.config.scoring, signal) : [];
    signal?.throwIfAborted();
    const t3 = performance.now();

    const existing = resolved.document ? scores[0] : undefined;
    const candidateScores = scores.slice(resolved.document ? 1 : 0);
    // The ranker scores the existing source even without candidates: its score may be the flag signal.
    const ranked = await this.rankerScores(c, existing?.score !== undefined ? { doc: resolved.document!, score: existing.score } : undefined, candidates, candidateScores);
    signal?.throwIfAborted();
    // One entailment call for the cited source and every candidate: P(supports) on the verdict's scale.
    // one document at a time, with a turn of the event loop between: a server keeps answering (issue 35)
    const coverage: ReturnType<typeof coverageDetailOfDocument>[] = [];
    if (this.deps.support) {
      for (const j of jobs) {
        coverage.push(coverageDetailOfDocument(query, j.doc));
        await nextTurn();
        signal?.throwIfAborted();
      }
    }
    const judged = this.deps.support ? await judgeSupport(this.deps.support, scores.map((s, i) => ({ claim: query, evidence: s.evidence, coverage: coverage[i]!.share, ...(i === 0 && resolved.document ? { sentences: resolved.document.sentences } : {}) }))) : [];
    const existingJudged = resolved.document ? judged[0] : undefined;
    const candidateJudged = judged.slice(resolved.document ? 1 : 0);
    const candidateCoverage = coverage.slice(resolved.document ? 1 : 0);
    const byRanker = this.flagSignal === 'ranker';
    const bySupport = this.flagSignal === 'support';
    // The support signal: P(supports), or with the calibration's weights P(supports) and the page's
    // similarity to the claim together (support-signal.ts). Both computed for every scored source.
    const weights = bySupport ? this.supportWeights : undefined;
    const similarity = weights ? jobs.map((j) => pageSimilarity(query, j.doc)) : [];
    const supportScores = judged.map((j, i) => (j && weights ? supportSignal(j.probability, similarity[i]!, weights) : j?.probability));
    const candidateSupport = supportScores.slice(resolved.document ? 1 : 0);
    const t4 = performance.now();
    let verification: Verification | undefined;
    if (existing?.score !== undefined) {
      verification = { score: existing.score, evidence: existing.evidence, sentencesScored: existing.unitsScored, sentencesTotal: existing.unitsTotal };
      if (existing.best) verification.bestPassage = existing.best;
      if (ranked?.existing !== undefined) verification.rankerScore = ranked.existing;
      if (existingJudged) {
        verification.support = existingJudged.probability;
        verification.supportLabel = existingJudged.label;
        verification.relevant = existingJudged.relevant;
        if (existingJudged.contradicted) verification.contradicted = true;
        if (existingJudged.conflict) verification.conflict = existingJudged.conflict;
        if (existingJudged.findings) verification.findings = existingJudged.findings;
        if (existingJudged.review) verification.review = existingJudged.review;
        verification.coverage = coverage[0]!;
        if (weights) {
          verification.similarity = similarity[0]!;
          verification.supportSignal = supportScores[0]!;
        }
      }
      const th = this.threshold;
      const signal = byRanker ? ranked?.existing : bySupport ? supportScores[0] : existing.score;
      const stated = existingJudged?.findings?.some((f) => f.decisive) && existingJudged.contradicted;
      const scale = this.probabilityScale;
      if (scale && signal !== undefined) {
        const p = probabilityOf(scale, signal);
        // A conflict stated in words caps what the signal alone would say: the NLI model's own P(supports).
        verification.probability = stated ? Math.min(p, existingJudged!.probability) : p;
      }
      // Likely fails verification = the one decision's "not supported" (verify/decision.ts), on the same
      // threshold every surface quotes; without a probability, the calibrated score threshold as before.
      // A contradiction the model reads without words to point to is flagged too (needs review, no tag).
      if (verification.probability !== undefined) verification.flagged = decisionOf(verification, this.bands).band === 'not-supported' || (!!verification.contradicted && !stated);
      else if (th !== undefined && signal !== undefined) verification.flagged = signal <= th || !!existingJudged?.contradicted;
    }
    const out: CitationAudit = {
      id: c.id,
      index: c.index,
      claim: cited.claim,
      ...(cited.claimPrefix !== undefined && cited.claimPrefix !== cited.claim ? { claimPrefix: cited.claimPrefix } : {}),
      ...(c.claim !== cited.claim && c.claim !== cited.claimPrefix ? { resolvedClaim: c.claim } : {}),
      context: c.context,
      sectionPath: c.sectionPath,
      tags: c.tags,
      query,
      source: sourceReport(c, resolved),
      timingsMs: { source: t1 - t0, retrieve: t2 - t1, score: t3 - t2, rank: t4 - t3 },
    };
    if (c.kind) out.kind = c.kind;
    if (language) out.language = { ...language, ...(skip ? {} : { scoredAnyway: true }) };
    if (verification) {
      out.verification = verification;
      out.decision = decisionOf(verification, this.bands);
    }
    const depth = urlDepth(c.source.url ?? (c.source.archiveUrl ? originalFromArchiveUrl(c.source.archiveUrl) : undefined));
    if (depth !== undefined) out.urlDepth = depth;
    if (candidates) {
      // On the support signal the threshold is not in the engine's or the ranker's units: candidates are held
      // to it below, on their own support signal.
      const onScore = this.threshold === undefined || bySupport ? undefined : { threshold: this.threshold, onRankerScore: byRanker };
      const recs = rankSuggestions(candidates, candidateScores, verification?.score, this.config.recommend, onScore, ranked);
      // Each candidate's support signal (as the cited source's: P(supports), or combined with its similarity).
      const signalByDoc = new Map(candidates.candidates.map((c, i) => [c.doc.id, candidateSupport[i]]));
      if (this.deps.support) {
        const byDoc = new Map(candidates.candidates.map((c, i) => [c.doc.id, candidateJudged[i]]));
        const coverageByDoc = new Map(candidates.candidates.map((c, i) => [c.doc.id, candidateCoverage[i]]));
        // A candidate is held to the rule the cited source is flagged by: one whose relevant evidence
        // contradicts the claim, or (with a support calibration) at or below the flag threshold, is no better
        // source. The verdict's REFUTES and the SciFact-fitted relevance gate alone do not drop it: on
        // Wikipedia claims they are wrong too often to flag a cited source (docs/RESULTS-HISTORY.md, "Citation audit (SIDE)"),
        // and dropped the right abstract of the shipped sample's citation #20.
        const th = this.threshold;
        recs.suggestions = recs.suggestions.filter((s) => {
          const j = byDoc.get(s.docId);
          const signal = signalByDoc.get(s.docId);
          return !j?.contradicted && !(bySupport && th !== undefined && signal !== undefined && signal <= th);
        });
        for (const s of recs.suggestions) {
          const j = byDoc.get(s.docId);
          if (j) s.support = j.probability;
          const cov = coverageByDoc.get(s.docId);
          if (cov) s.coverage = cov;
        }
      }
      const scale = this.probabilityScale;
      if (scale) {
        for (const s of recs.suggestions) {
          const signal = byRanker && recs.rankedBy !== 'verification' ? s.rerankScore : bySupport ? signalByDoc.get(s.docId) : s.score;
          if (signal !== undefined) s.probability = probabilityOf(scale, signal);
        }
      }
      // Relevance (verify's gate): a candidate whose best sentence fails the gate is offered only when its
      // probability of support still reaches the partly-supported band; else the report says that no better
      // source was found instead of showing an unrelated page with a bar.
      if (this.deps.support) {
        const relevant = new Map(candidates.candidates.map((c, i) => [c.doc.id, candidateJudged[i]?.relevant]));
        const before = recs.suggestions.length;
        recs.suggestions = recs.suggestions.filter((s) => relevant.get(s.docId) !== false || (s.probability ?? 0) >= this.bands.partlyFrom);
        // A better source is one that supports the claim: its probability at or above the supported threshold
        // and above the cited source's (issue 36: "Supported 0.44" beside "a better source (P 0.32)" was not).
        const cited = verification?.probability;
        const betterButPartly = recs.suggestions.filter((s) => s.probability !== undefined && s.probability < this.bands.supportedFrom && (cited === undefined || s.probability > cited));
        recs.suggestions = recs.suggestions.filter((s) => s.probability === undefined || (s.probability >= this.bands.supportedFrom && (cited === undefined || s.probability > cited)));
        if (before && !recs.suggestions.length) recs.noBetterSource = NO_BETTER_SOURCE;
        // Said, not hidden (issue 46: the sample's #6): a candidate read above the cited source but short of the
        // supported band is named with its probability, so "no better source" never reads as "none is closer".
        const closest = betterButPartly.sort((x, y) => y.probability! - x.probability!)[0];
        if (!recs.suggestions.length && closest) recs.noBetterSource = `${NO_BETTER_SOURCE} that reaches the supported band (from ${this.bands.supportedFrom.toFixed(2)}); the closest, "${closest.title}" (${closest.docId}), has a probability of support of ${closest.probability!.toFixed(2)}, above the cited source's${cited !== undefined ? ` ${cited.toFixed(2)}` : ''}`;
      }
      if (candidates.found) {
        // A source found by search is proposed only when it supports the claim better than the cited one: its
        // band (bands.ts, on its own probability of support) above the cited source's.
        const citedBand = BAND_ORDER[citationBand(out, this.bands).band]!;
        recs.suggestions = recs.suggestions.filter((s) => s.probability === undefined || BAND_ORDER[bandOf(s.probability, false, this.bands)]! > citedBand);
        for (const s of recs.suggestions) Object.assign(s, candidates.found.get(s.docId));
        if (candidates.search) recs.search = candidates.search;
        if (!recs.suggestions.length) recs.noBetterSource ??= NO_BETTER_SOURCE_BY_SEARCH;
      }
      if (!recs.suggestions.length) recs.noBetterSource ??= NO_BETTER_SOURCE;
      out.recommendations = recs;
    }
    out.band = citationBand(out, this.bands);
    return out;
  }

  /** The report entry of a citation whose audit threw: its source status if lookup worked, and why. */
  private async failedCitation(c: AuditCitation, e: unknown): Promise<CitationAudit> {
    const message = e instanceof Error ? e.message : String(e);
    const resolved = await this.deps.resolver.resolve(c.source).catch(
      (err: unknown): ResolvedSource => ({ status: 'unreachable', reason: `source lookup failed: ${err instanceof Error ? err.message : String(err)}`, attempts: [] }),
    );
    const out: CitationAudit = {
      id: c.id,
      index: c.index,
      claim: c.claim,
      context: c.context,
      sectionPath: c.sectionPath,
      tags: c.tags,
      query: verificationQuery({ claim: c.claim, context: c.context, articleTitle: c.articleTitle }, this.config.queryContext),
      source: sourceReport(c, resolved),
      error: `this citation could not be audited: ${message}`,
      timingsMs: { source: 0, retrieve: 0, score: 0, rank: 0 },
    };
    if (c.kind) out.kind = c.kind;
    out.band = citationBand(out, this.bands);
    return out;
  }

  /** The one decision's thresholds for this engine (AuditDeps.thresholds). */
  get bands(): DecisionThresholds {
    return this.deps.thresholds ?? BAND_THRESHOLDS;
  }

  /** The flag signal's calibration as a probability of support, when the flag rule carries one. */
  get probabilityScale(): NonNullable<FlagRule['probability']> | undefined {
    const f = this.deps.flag;
    return f && 'threshold' in f ? f.probability : undefined;
  }

  /** With the support signal: the weights that combine P(supports) with the page similarity (absent: P(supports) alone). */
  private get supportWeights(): SupportSignalWeights | undefined {
    const f = this.deps.flag;
    return f && 'threshold' in f ? f.supportSignal : undefined;
  }

  /** Which score the flag threshold applies to (calibration.ts FlagRule.signal). */
  get flagSignal(): 'engine' | 'ranker' | 'support' {
    const f = this.deps.flag;
    if (f && 'threshold' in f && f.signal === 'support' && this.deps.support) return 'support';
    return f && 'threshold' in f && f.signal === 'ranker' && this.deps.ranker ? 'ranker' : 'engine';
  }

  private async rankerScores(c: AuditCitation, existing: { doc: Document; score: number } | undefined, set: CandidateSet | undefined, scores: readonly DocumentScore[]): Promise<RankerScores | undefined> {
    const r = this.deps.ranker;
    const cands = set?.candidates ?? [];
    if (!r || (cands.length === 0 && !existing)) return undefined;
    const rows = await rankFeatures(
      c,
      [...(existing ? [{ doc: existing.doc, engineScore: existing.score }] : []), ...cands.map((cand, i) => ({ doc: cand.doc, engineScore: scores[i]?.score }))],
      { stats: r.stats, embedder: r.embedder, maxWords: this.config.scoring.maxWords, ...(r.storedVectors ? { storedVectors: r.storedVectors } : {}) },
    );
    const all = rows.map((x) => r.ranker.score(x));
    return { rankedBy: r.ranker.info.id, existing: existing ? all[0] : undefined, candidates: all.slice(existing ? 1 : 0) };
  }

  private async candidates(c: AuditCitation, resolved: ResolvedSource, signal?: AbortSignal, searched = false): Promise<CandidateSet | undefined> {
    const { retriever, store, searchCandidates } = this.deps;
    if (!this.config.recommend.enabled || (searchCandidates ? !searched : !retriever || !store)) return undefined;
    const urls = [c.source.url, c.source.archiveUrl, resolved.usedUrl].filter((u): u is string => !!u);
    if (c.source.archiveUrl) {
      const original = originalFromArchiveUrl(c.source.archiveUrl);
      if (original) urls.push(original);
    }
    const exclusion = {
      articleTitle: c.articleTitle,
      existingUrls: urls,
      ...(resolved.docId ? { existingDocId: resolved.docId } : {}),
      ...(resolved.document ? { existingText: resolved.document.sentences.join(' ') } : {}),
    };
    if (searchCandidates) return searchCandidates(c, exclusion, this.config.recommend, signal);
    return retrieveCandidates(retriever!, store!, c, exclusion, this.config.recommend, this.deps.retrievalMode ?? 'bm25', signal);
  }

  async auditArticle(input: AuditInput, onProgress?: (p: AuditProgress) => void): Promise<AuditReport> {
    const started = performance.now();
    const results = new Array<CitationAudit>(input.citations.length);
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < input.citations.length) {
        const i = next++;
        // One citation's failure is reported on it; it never ends the audit of the others.
        results[i] = await this.auditCitation(input.citations[i]!).catch((e: unknown) => this.failedCitation(input.citations[i]!, e));
        onProgress?.({ done: ++done, total: input.citations.length, last: results[i]! });
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(this.config.concurrency, input.citations.length)) }, worker));
    const seconds = (performance.now() - started) / 1000;
    return {
      article: { title: input.title, origin: shownOrigin(input.origin), format: input.format, kind: input.kind ?? documentKindOf(input.format), skippedRefs: input.skippedRefs, uncitedClaims: input.uncitedClaims },
      summary: summarise(results, seconds),
      citations: results,
      provenance: await this.provenance(),
    };
  }

  async provenance(): Promise<AuditProvenance> {
    const flag = this.deps.flag;
    const models = this.deps.models ?? [this.deps.scorer.info];
    const p: AuditProvenance = {
      models,
      config: this.config,
      configHash: configHash({ config: this.config, models: models.map((m) => `${m.id}@${m.version}`), retrievalMode: this.deps.retrievalMode }),
      flagging: flag
        ? 'threshold' in flag
          ? {
              threshold: flag.threshold,
              source: flag.source,
              signal: this.flagSignal,
              ...(flag.definition ? { definition: flag.definition } : {}),
              // The probability threshold quoted everywhere is the one decision's "not supported" threshold (verify/decision.ts).
              ...(flag.probability ? { probabilityThreshold: this.bands.notSupportedBelow, tagBelow: this.bands.tagBelow, bands: this.bands, meaning: PROBABILITY_MEANING } : {}),
            }
          : { disabledReason: flag.reason }
        : { disabledReason: 'no threshold' },
      veraciteVersion: VERACITE_VERSION,
      createdAt: new Date().toISOString(),
    };
    if (this.deps.store) {
      p.snapshot = await this.deps.store.snapshot();
      p.engine = this.deps.store.engine;
    }
    // Reports are shared: the index is named as reportPath gives it, never by a path of this machine (issue 31).
    if (this.deps.indexDir) p.index = reportPath(this.deps.indexDir);
    return p;
  }
}

/**
 * The citation with `claim` set to the text the audit verifies: the sentence or its prefix, read with its
 * subject when it names it only by a pronoun or a bare surname (standalone-claim.ts).
 */
export function withClaimText(c: AuditCitation, mode: AuditConfig['claimText']): AuditCitation {
  const base = mode === 'prefix' && c.claimPrefix && c.claimPrefix !== c.claim ? { ...c, claim: c.claimPrefix } : c;
  const alone = standaloneClaim(base.claim, base.context, base.articleTitle);
  return alone.replaced ? { ...base, claim: alone.text } : base;
}

/** The claim's and the source's languages when one of them is not English (text/language.ts), else undefined. */
function pairLanguage(claim: string, doc: ResolvedSource['document']): CitationAudit['language'] {
  const c = readLanguage(claim);
  const s = doc ? readLanguage(doc.sentences.join(' ').slice(0, 4000)) : undefined;
  const problem = languageProblem(c, s);
  return problem ? { claim: c, ...(s ? { source: s } : {}), problem } : undefined;
}

function sourceReport(c: AuditCitation, r: ResolvedSource): SourceReport {
  const s: SourceReport = { status: r.status, attempts: r.attempts };
  const src = c.source;
  if (src.url) s.url = src.url;
  if (src.title) s.title = src.title;
  if (src.work) s.work = src.work;
  if (src.archiveUrl) s.archiveUrl = src.archiveUrl;
  if (src.deadUrl !== undefined) s.deadUrl = src.deadUrl;
  if (r.via) s.via = r.via;
  if (r.usedUrl) s.usedUrl = r.usedUrl;
  if (r.docId) s.docId = r.docId;
  if (r.document?.title) s.pageTitle = r.document.title;
  if (r.reason) s.reason = r.reason;
  if (r.workNotFound) s.workNotFound = true;
  if (src.ids) s.ids = src.ids;
  return s;
}

/** Citations whose judge could not answer (its reply unreadable): counted in every report, absent when none. */
function judgeUnreadableCount(results: readonly CitationAudit[]): { judgeUnreadable?: number } {
  const n = results.filter((r) => r.verification?.review?.reason === 'judge').length;
  return n ? { judgeUnreadable: n } : {};
}

export function summarise(results: readonly CitationAudit[], seconds: number): AuditSummary {
  const byStatus: AuditSummary['byStatus'] = {};
  for (const r of results) byStatus[r.source.status] = (byStatus[r.source.status] ?? 0) + 1;
  return {
    citations: results.length,
    byStatus,
    scored: results.filter((r) => r.verification).length,
    flagged: results.filter((r) => r.verification?.flagged).length,
    withSuggestions: results.filter((r) => r.recommendations?.suggestions.length).length,
    taggedFailedVerification: results.filter((r) => r.tags.failedVerification).length,
    byBand: countByBand(results),
    ...judgeUnreadableCount(results),
    seconds,
    citationsPerSecond: seconds > 0 ? results.length / seconds : 0,
  };
}

/** The article's origin as a report shows it: a URL (or other named origin) as given, a file as reportPath names it. */
function shownOrigin(origin: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(origin) && !/^[a-z]:[\\/]/i.test(origin)) return origin;
  return origin.includes('/') || origin.includes('\\') ? reportPath(origin) : origin;
}
