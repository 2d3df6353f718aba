/**
 * Claim verification: candidate documents -> top-k evidence sentences -> verdict, with provenance.
 *
 *   retrieveDocuments (hybrid passages ∪ title matches)
 *     -> EvidenceSelector (sentence-level pairs, or document-level in context), optional link hop
 *     -> EntailmentModel per (evidence, claim) pair + ColumbiaNLP rule, or once on the concatenation
 */
import type { EntailmentModel, EntailmentProbs, Embedder, PairScorer, ModelInfo } from '../models/types.js';
import { configHash } from '../provenance/config-hash.js';
import type { Provenance } from '../provenance/types.js';
import { VERACITE_VERSION } from '../provenance/version.js';
import type { Retriever } from '../retrieve/retriever.js';
import type { Store } from '../store/types.js';
import { coverageDetailOfDocument, coverageInWords, documentCoverage } from './coverage.js';
import { capStatedConflict } from './stated-conflict.js';
import { documentFindings, findingsOf, isJoined, noteJoined, readWithFindings } from './findings/findings.js';
import { aggregateColumbia, aggregateConcat, calibratorInputs, decideAcrossDocuments, DEFAULT_AGGREGATE, passesGate, type AcrossDocuments, type AggregateConfig, type DecisionInputs, type VerdictRule } from './aggregate.js';
import { counterClaims, counterPairs, splitCounterReads } from './counter-claims.js';
import { DEFAULT_DOCUMENT_RETRIEVAL, retrieveDocuments, type DocumentRetrievalConfig } from './document-retrieval.js';
import { DocumentLevelSelector } from './evidence-document-level.js';
import { SentenceLevelSelector } from './evidence-sentence-level.js';
import { hopEvidence, type HopConfig } from './hop.js';
import { aggregateConfigOf, loadVerdictCalibration } from './verdict-calibration.js';
import { loadReviewModel, reviewOf, type ReviewModel } from './review.js';
import { engineNote } from './engine-notes.js';
import type { CandidateDocument, EvidenceSelector, EvidenceSentence, Label, LabelProbs, Opposite, Review, Verdict, VerdictFinding } from './types.js';

export interface DocumentVerdict {
  docId: string;
  title: string;
  label: Label;
  confidence: number;
  probs: LabelProbs;
  evidence: EvidenceSentence[];
  /** Share of the claim's subject words the document's best passage contains (coverage.ts), in [0, 1]. */
  coverage: number;
}

export interface VerifierModels {
  embedder?: Embedder;
  scorer: PairScorer;
  entailment: EntailmentModel;
}

export interface VerifierConfig {
  documents: DocumentRetrievalConfig;
  evidence: { mode: 'sentence' | 'document'; k: number; threshold?: number; prefilter: number };
  hop: HopConfig;
  /**
   * statedConflict: cap the entailment of evidence that states the opposite change (stated-conflict.ts).
   * findings: read the findings of each pair (findings/findings.ts): a finding caps entailment, a decisive
   * one reads as a contradiction and decides REFUTES for a document that passes the relevance gate.
   */
  verdict: { rule: VerdictRule; across: AcrossDocuments; statedConflict?: boolean; findings?: boolean } & AggregateConfig;
}

export const DEFAULT_VERIFIER_CONFIG: VerifierConfig = {
  documents: DEFAULT_DOCUMENT_RETRIEVAL,
  evidence: { mode: 'sentence', k: 5, prefilter: 40 },
  hop: { enabled: false, weight: 0.5, maxDocs: 3 },
  // 'by-document': each decision is made on one document's sentences, as the verdict calibration was
  // fitted (claim x one abstract), and the most relevant document that takes a side decides. Measured on
  // SciFact train claims in the open setting with the shipped rule (scripts/learn/verdict-across-
  // documents.ts, docs/RESULTS-HISTORY.md): claim-level accuracy by-document 0.690, pooled 0.649, 'by-rank' 0.685.
  // At stop 21 by-rank led by 1.4 points under concat but let the top-retrieved document decide on a
  // misreading of "Smoking reduces the risk of lung cancer" (test/verify-cases.test.ts); it stays a
  // library option. A claim-coverage gate on the deciding document gained 0.6 point at best (under the
  // margin), so there is none.
  // statedConflict: evidence that states the opposite change is not read as support (stated-conflict.ts).
  // Held out on SciFact train (tune-verdict) it moved accuracy by +0.1 point under both rules (-0.5 to
  // -0.1 for the calibration that reads coverage): no measurable cost, and it removes the misreading of
  // "smoking cessation reduces the risk" as support for "smoking reduces the risk" (test/verify-cases.test.ts).
  // findings: a sentence that gives another figure for what the claim quantifies, changes the same thing
  // the other way or negates what the claim states is not read as support, and a decisive one refutes
  // (findings/findings.ts; issue 28: "Reducing Orai1 or STIM1 increases breast tumor metastasis" was
  // SUPPORTS 0.88 on "... decreased tumor metastasis"). test/hard-claims.test.ts counts the cases.
  verdict: { rule: 'columbia', across: 'by-document', statedConflict: true, findings: true, ...DEFAULT_AGGREGATE },
};

export function mergeVerifierConfig(base: VerifierConfig, over: DeepPartial<VerifierConfig> = {}): VerifierConfig {
  return {
    documents: { ...base.documents, ...over.documents },
    evidence: { ...base.evidence, ...over.evidence },
    hop: { ...base.hop, ...over.hop },
    verdict: { ...base.verdict, ...over.verdict },
  } as VerifierConfig;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? Partial<T[K]> : T[K] };

export class Verifier {
  readonly config: VerifierConfig;
  /** Whether thresholds/temperature come from models/verdict-calibration.json. */
  readonly calibrated: boolean;
  /** The verdict settings for one document judged on its own (verifyEachDocument): its fitted calibration reads claim coverage. */
  readonly documentVerdict: VerifierConfig['verdict'];
  /** The needs-review model (review.ts), when it applies to these models and this rule. */
  readonly review: ReviewModel | undefined;
  private readonly selector: EvidenceSelector;
  /** The last claim's counter-claims: verifyEachDocument decides once per document on the same claim. */
  private lastCounters: { claim: string; counters: string[] } = { claim: '', counters: [] };
  constructor(
    readonly store: Store,
    readonly retriever: Retriever,
    readonly models: VerifierModels,
    config: DeepPartial<VerifierConfig> = {},
    /**
     * A model profile's verdict calibration (veracite models calibrate) instead of the shipped one, and the
     * profile's name and hash for the provenance.
     */
    readonly profile?: { name: string; hash: string; calibration?: string; review?: string },
  ) {
    // Thresholds and temperature fitted for exactly these models (models/verdict-calibration.json, or the
    // profile's) are the defaults; explicit configuration still wins.
    const calibration = loadVerdictCalibration([models.scorer.info, models.entailment.info], ...(profile?.calibration ? [profile.calibration] : []));
    const rule = config.verdict?.rule ?? calibration?.bestRule ?? DEFAULT_VERIFIER_CONFIG.verdict.rule;
    const fitted = calibration?.rules[rule];
    const base = fitted
      ? mergeVerifierConfig(DEFAULT_VERIFIER_CONFIG, {
          verdict: { rule, ...aggregateConfigOf(fitted) },
        })
      : mergeVerifierConfig(DEFAULT_VERIFIER_CONFIG, { verdict: { rule } });
    this.config = mergeVerifierConfig(base, config);
    this.calibrated = !!fitted;
    // Needs review (review.ts): fitted on the decisions of the calibration's own rule (the shipped one's concat, a
    // profile's bestRule, by tune-verdict --domains), applied only to them; a profile without one marks nothing.
    const reviewFitted = !!fitted && rule === calibration?.bestRule;
    const pair = [models.scorer.info, models.entailment.info];
    if (reviewFitted && profile?.calibration) this.review = profile.review ? loadReviewModel(pair, profile.review) : undefined;
    else if (reviewFitted && rule === 'concat') this.review = loadReviewModel(pair);
    // One document judged on its own reads claim coverage too (VerdictCalibration.documentRules).
    const alone = calibration?.documentRules?.[rule];
    this.documentVerdict = alone ? mergeVerifierConfig(mergeVerifierConfig(base, { verdict: aggregateConfigOf(alone) }), config).verdict : this.config.verdict;
    this.selector =
      this.config.evidence.mode === 'document'
        ? new DocumentLevelSelector(models.scorer)
        : new SentenceLevelSelector(models.scorer, this.config.evidence.prefilter);
  }

  modelInfos(): ModelInfo[] {
    const infos = [this.models.scorer.info, this.models.entailment.info];
    if (this.models.embedder && this.config.documents.mode !== 'bm25') infos.unshift(this.models.embedder.info);
    return infos;
  }

  async provenance(): Promise<Provenance> {
    const models = this.modelInfos();
    const config = { ...this.config, calibrated: this.calibrated, retriever: this.retriever.config, ...(this.profile ? { profile: { name: this.profile.name, hash: this.profile.hash } } : {}) } as unknown as Record<string, unknown>;
    return {
      snapshot: await this.store.snapshot(),
      engine: this.store.engine,
      models,
      config,
      configHash: configHash({ config, models }),
      veraciteVersion: VERACITE_VERSION,
      createdAt: new Date().toISOString(),
    };
  }

  /**
   * Open setting: find the documents, then the evidence, then the verdict. `signal` (e.g. a request's
   * deadline) stops the work between stages and reaches the models, which may stop between their batches;
   * the promise then rejects with the signal's reason.
   */
  async verify(claim: string, signal?: AbortSignal): Promise<Verdict> {
    const t0 = performance.now();
    signal?.throwIfAborted();
    const documents = await retrieveDocuments(this.store, this.retriever, claim, this.config.documents, signal);
    const t1 = performance.now();
    return this.finish(claim, documents, { retrievalMs: t1 - t0 }, t0, signal);
  }

  /** Oracle setting: the candidate documents are given (e.g. SciFact's cited abstracts). `signal`: as verify. */
  async verifyAgainst(claim: string, docIds: string[], signal?: AbortSignal): Promise<Verdict> {
    const t0 = performance.now();
    signal?.throwIfAborted();
    const docs = await this.store.getDocuments(docIds);
    const documents: CandidateDocument[] = docs.map((d) => ({ docId: d.id, title: d.title, score: 0, via: [] }));
    return this.finish(claim, documents, { retrievalMs: 0 }, t0, signal);
  }

  /**
   * One verdict per document (SciFact's abstract-level task): evidence is selected within each document
   * and the verdict decided from that document's evidence alone.
   */
  async verifyEachDocument(claim: string, docIds: string[], k = 3): Promise<DocumentVerdict[]> {
    const docs = await this.store.getDocuments(docIds);
    const coverage = documentCoverage(claim, docs);
    const out: DocumentVerdict[] = [];
    for (const doc of docs) {
      const evidence = await this.selector.select(claim, [doc], { k, threshold: this.config.evidence.threshold });
      const { label, probs } = await this.decide(claim, evidence, this.documentVerdict, coverage);
      out.push({ docId: doc.id, title: doc.title, label, confidence: probs[label], probs, evidence, coverage: coverage.get(doc.id) ?? 1 });
    }
    return out;
  }

  private async finish(claim: string, documents: CandidateDocument[], timings: Record<string, number>, t0: number, signal?: AbortSignal): Promise<Verdict> {
    signal?.throwIfAborted();
    const t1 = performance.now();
    const docs = await this.store.getDocuments(documents.map((d) => d.docId));
    signal?.throwIfAborted();
    const { k, threshold } = this.config.evidence;
    const select = { k, threshold, ...(signal ? { signal } : {}) };
    let evidence = await this.selector.select(claim, docs, select);
    signal?.throwIfAborted();
    if (this.config.hop.enabled) evidence = await hopEvidence(this.store, this.selector, claim, evidence, docs, this.config.hop, select);
    signal?.throwIfAborted();
    const t2 = performance.now();
    const { label, probs, decidedBy, opposite, overruled } = await this.decide(claim, evidence, this.config.verdict, new Map(), documents.map((d) => d.docId), signal);
    signal?.throwIfAborted();
    // What the deciding document names of the claim, for people to judge the verdict by (one document: ms).
    const deciding = decidedBy && docs.find((d) => d.id === decidedBy.docId);
    const covered = deciding && coverageDetailOfDocument(claim, deciding);
    const decided = decidedBy && covered ? { ...decidedBy, coverage: { ...covered, text: coverageInWords(covered) } } : decidedBy;
    const findings = verdictFindings(evidence, this.config.verdict, decidedBy?.docId);
    // The evidence the verdict rests on: the deciding document's (by document, else the most relevant), or all when pooled.
    const decidingDoc = decidedBy?.docId ?? evidence[0]?.docId;
    const resting = this.config.verdict.across === 'pooled' ? evidence : evidence.filter((e) => e.docId === decidingDoc);
    const review = (this.review && reviewOf(this.review, { probs, label, relevance: resting.length ? Math.max(...resting.map((e) => e.score)) : 0, twinMargin: opposite ? opposite.claimEntailment - opposite.entailment : 0, sentences: resting.flatMap((e) => (e.entailment ? [e.entailment] : [])), gate: this.config.verdict.relevanceThreshold ?? 0 })) ?? this.modelReview(claim, resting, probs[label]);
    const t3 = performance.now();
    return {
      claim,
      label,
      confidence: probs[label],
      probs,
      ...(decided ? { decidedBy: decided } : {}),
      ...(findings.length ? { findings } : {}),
      ...(overruled ? { overruled } : {}),
      ...(review ? { review } : {}),
      engine: engineNote(this.models.entailment.info, claim, resting),
      // Said when the verdict takes a side: what the deciding evidence makes of the claim's opposite.
      ...(opposite && label !== 'NOT ENOUGH INFO' ? { opposite } : {}),
      evidence,
      documents,
      provenance: await this.provenance(),
      timings: { ...timings, evidenceMs: t2 - t1, verdictMs: t3 - t2, totalMs: t3 - t0 },
    };
  }

  /**
   * Needs review because the entailment model says its reading of the deciding evidence (each sentence, or
   * the sentences joined as the concat rule reads them) cannot be trusted: an LLM judge's unreadable answer
   * or invented quote. No P(right) model covers such an engine: pRight is the verdict's own confidence.
   */
  private modelReview(claim: string, resting: readonly EvidenceSentence[], confidence: number): Review | undefined {
    const ask = this.models.entailment.reviewOf?.bind(this.models.entailment);
    if (!ask || !resting.length) return undefined;
    const premises = [resting.map((e) => e.text).join(' '), ...resting.map((e) => e.text)];
    const why = premises.map((premise) => ask({ premise, hypothesis: claim })).find((w) => w !== undefined);
    return why ? { reason: 'judge', message: `needs review: the entailment model's reading of the deciding evidence is not to be trusted as it is: ${why}`, pRight: confidence, level: 1 } : undefined;
  }

  /**
   * The entailment model's reading of (evidence, claim) pairs as the verdict reads them: with stated
   * opposite changes capped when the configuration asks for it (stated-conflict.ts). Fitting and
   * measurement code reads pairs through this, so it sees what `verify` decides on. `findingsFor`: the
   * premises whose findings are read (all when absent); verify leaves out the documents below the relevance
   * gate, on which the verdict takes no side.
   */
  async readEntailment(pairs: readonly { premise: string; hypothesis: string }[], signal?: AbortSignal, findingsFor?: ReadonlySet<string>): Promise<EntailmentProbs[]> {
    const probs = pairs.length ? await this.models.entailment.predict([...pairs], signal) : [];
    const { statedConflict, findings } = this.config.verdict;
    return probs.map((p, i) => {
      const { premise, hypothesis } = pairs[i]!;
      const capped = statedConflict ? capStatedConflict(hypothesis, premise, p) : p;
      if (!findings || (findingsFor && !findingsFor.has(premise))) return capped;
      // A document's sentences read as one premise: only a decisive finding bears on the whole reading; one
      // that decides nothing lowers its own sentence's reading (read alone below), not its document's.
      const stated = findingsOf(hypothesis, premise);
      return readWithFindings(capped, isJoined(premise) ? stated.filter((f) => f.decisive) : stated);
    });
  }

  private counterClaimsOf(claim: string): string[] {
    if (this.lastCounters.claim !== claim) this.lastCounters = { claim, counters: counterClaims(claim) };
    return this.lastCounters.counters;
  }

  /**
   * `cfg`: the verdict settings (verify's, or a lone document's); `coverage`: each document's claim
   * coverage, read only by a calibration fitted with it; `order`: the documents' ids in retrieval order
   * (what `by-rank` decides in).
   */
  private async decide(claim: string, evidence: EvidenceSentence[], cfg: VerifierConfig['verdict'], coverage: ReadonlyMap<string, number>, order: readonly string[] = [], signal?: AbortSignal): Promise<Decision> {
    if (evidence.length === 0) return aggregateColumbia([], cfg);
    if (cfg.rule === 'concat') {
      // Groups in the order they are decided in (documentGroups). The relevance gate reads the best
      // evidence score of what each decision is made on.
      const groups = documentGroups(evidence, cfg.across, order);
      // The verdict reads each group joined; each sentence is also read alone (same call, a few more pairs)
      // so that people still see which sentence supports or contradicts the claim.
      // Each group is also read against the claim's counter-claims when the calibration reads the twin margin.
      const counters = cfg.calibrator && calibratorInputs(cfg.calibrator).includes('twinMargin') ? this.counterClaimsOf(claim) : [];
      const premises = groups.map((g) => g.map((e) => e.text).join(' '));
      // Each sentence is read for findings once, not again inside its document's joined premise.
      if (cfg.findings) for (const g of groups) noteJoined(g.map((e) => e.text));
      const joined = counterPairs(claim, premises, counters);
      const relevant = relevantTexts(groups, cfg);
      for (const [g, p] of groups.map((g, i) => [g, premises[i]!] as const)) if (relevant.has(g[0]!.text)) relevant.add(p);
      const probs = await this.readEntailment([...joined, ...evidence.map((e) => ({ premise: e.text, hypothesis: claim }))], signal, relevant);
      evidence.forEach((e, i) => (e.entailment = probs[joined.length + i]));
      attachFindings(claim, evidence, cfg, relevant);
      const readings = splitCounterReads(probs.slice(0, joined.length), premises.length, counters);
      return withDecidingDocument(
        groups,
        groups.map((g, i) =>
          decisiveFinding(g, cfg, {
            ...aggregateConcat(readings[i]!.claim, cfg, Math.max(...g.map((e) => e.score)), { ...coverageInput(groupCoverage(g, coverage)), twinMargin: readings[i]!.margin }),
            ...(readings[i]!.opposite ? { opposite: readings[i]!.opposite } : {}),
          }),
        ),
      );
    }
    const pairs = evidence.map((e) => ({ premise: e.text, hypothesis: claim }));
    const relevant = relevantTexts(documentGroups(evidence, cfg.across, order), cfg);
    const probs = await this.readEntailment(pairs, signal, relevant);
    probs.forEach((p, i) => (evidence[i]!.entailment = p));
    attachFindings(claim, evidence, cfg, relevant);
    return columbiaVerdict(evidence, cfg, order, coverage);
  }
}

/** A decision's coverage input, when computed. */
const coverageInput = (coverage: number | undefined): DecisionInputs => (coverage === undefined ? {} : { coverage });

/** Coverage of what one decision reads: its document's, or the best of its documents' when pooled; undefined when not computed. */
function groupCoverage(group: readonly EvidenceSentence[], coverage: ReadonlyMap<string, number>): number | undefined {
  const known = [...new Set(group.map((e) => e.docId))].map((id) => coverage.get(id)).filter((c): c is number => c !== undefined);
  return known.length ? Math.max(...known) : undefined;
}

/**
 * Evidence (sorted best first) in the groups the rule decides on, in the order they are tried: pooled, one
 * group; by-document, a group per document, best evidence first; by-rank, the same groups in `order` (the
 * documents' retrieval order; a document missing from it goes after those in it, best evidence first).
 */
export function documentGroups(evidence: readonly EvidenceSentence[], across: AcrossDocuments, order: readonly string[] = []): EvidenceSentence[][] {
  if (across === 'pooled') return [evidence.slice()];
  const groups = groupByDocument(evidence);
  if (across === 'by-document') return groups;
  const rank = new Map(order.map((id, i) => [id, i] as const));
  const at = (g: EvidenceSentence[]) => rank.get(g[0]!.docId) ?? order.length;
  // Array.prototype.sort is stable: ties (documents not in `order`) keep their evidence order.
  return groups.sort((a, b) => at(a) - at(b));
}

/**
 * The ColumbiaNLP verdict over evidence whose `entailment` is set (sorted best first), pooled or by
 * document (`cfg.across`, groups in order of relevance): the relevance gate reads the best evidence score
 * of what each decision is made on.
 */
export function columbiaVerdict(evidence: readonly EvidenceSentence[], cfg: AggregateConfig & { across: AcrossDocuments }, order: readonly string[] = [], coverage: ReadonlyMap<string, number> = new Map()): Decision {
  if (evidence.length === 0) return aggregateColumbia([], cfg);
  const groups = documentGroups(evidence, cfg.across, order);
  return withDecidingDocument(groups, groups.map((g) => decisiveFinding(g, cfg, aggregateColumbia(g.map((e) => e.entailment!), cfg, Math.max(...g.map((e) => e.score)), coverageInput(groupCoverage(g, coverage))))));
}

/**
 * The texts of the sentences in groups that pass the relevance gate: the verdict takes no side on the
 * others (and the highlighting shows them "not relevant"), so their findings are not read.
 */
function relevantTexts(groups: readonly (readonly EvidenceSentence[])[], cfg: AggregateConfig): Set<string> {
  const out = new Set<string>();
  for (const g of groups) if (g.length && passesGate(Math.max(...g.map((e) => e.score)), cfg)) for (const e of g) out.add(e.text);
  return out;
}

/** Sets each sentence's findings against the claim (findings/findings.ts), when the verdict reads them; `only`: the texts to read. */
function attachFindings(claim: string, evidence: readonly EvidenceSentence[], cfg: { findings?: boolean }, only?: ReadonlySet<string>): void {
  if (!cfg.findings) return;
  // Per document: a figure one sentence gives against the claim is not decisive when another states the claim's (documentFindings).
  const byDoc = new Map<string, EvidenceSentence[]>();
  for (const e of evidence) {
    if (only && !only.has(e.text)) {
      delete e.findings;
      continue;
    }
    byDoc.set(e.docId, [...(byDoc.get(e.docId) ?? []), e]);
  }
  for (const group of byDoc.values()) {
    const found = documentFindings(claim, group.map((e) => e.text));
    group.forEach((e, i) => {
      if (found[i]!.length) e.findings = found[i]!;
      else delete e.findings;
    });
  }
}

/**
 * One decision, overruled by a decisive finding in its evidence: a document that passes the relevance gate
 * and states, unambiguously, another figure, the opposite change or the negation of the claim refutes it
 * whatever the model reads (issue 28: "58%" against the right sentence's "28%" was NOT ENOUGH INFO 0.76).
 * The probabilities are the model's with its support mass given to REFUTES (and REFUTES the larger of that
 * and the neutral mass): not a calibrated probability, and the model's own reading is kept (`overruled`).
 */
export function decisiveFinding<T extends { label: Label; probs: LabelProbs }>(group: readonly EvidenceSentence[], cfg: AggregateConfig & { findings?: boolean }, decision: T): T & { overruled?: Decision['overruled'] } {
  if (!cfg.findings || decision.label === 'REFUTES' || !group.length || !passesGate(Math.max(...group.map((e) => e.score)), cfg)) return decision;
  const at = group.find((e) => e.findings?.some((f) => f.decisive));
  if (!at) return decision;
  const finding = at.findings!.find((f) => f.decisive)!;
  return refutedBy(decision, { ...finding, docId: at.docId, sentenceIndex: at.sentenceIndex });
}

/**
 * A decision overruled by a decisive finding: REFUTES, with the model's support mass given to REFUTES (and
 * REFUTES the larger of that and the neutral mass); the model's own reading is kept (`overruled`).
 */
export function refutedBy<T extends { label: Label; probs: LabelProbs }>(decision: T, finding: VerdictFinding): T & { overruled: NonNullable<Decision['overruled']> } {
  const p = decision.probs;
  const against = p.REFUTES + p.SUPPORTS;
  const probs: LabelProbs = { SUPPORTS: 0, REFUTES: Math.max(against, p['NOT ENOUGH INFO']), 'NOT ENOUGH INFO': Math.min(against, p['NOT ENOUGH INFO']) };
  return { ...decision, label: 'REFUTES', probs, overruled: { label: decision.label, probs: decision.probs, finding } };
}

/**
 * The findings a verdict shows: those of the deciding document's sentences, or (no deciding document named)
 * of every document whose evidence passes the relevance gate.
 */
function verdictFindings(evidence: readonly EvidenceSentence[], cfg: VerifierConfig['verdict'], decidedBy: string | undefined): VerdictFinding[] {
  if (!cfg.findings) return [];
  const best = new Map<string, number>();
  for (const e of evidence) best.set(e.docId, Math.max(best.get(e.docId) ?? -Infinity, e.score));
  const pooledBest = Math.max(-Infinity, ...best.values());
  const counts = (e: EvidenceSentence) => (decidedBy ? e.docId === decidedBy : passesGate(cfg.across === 'pooled' ? pooledBest : best.get(e.docId)!, cfg));
  const out: VerdictFinding[] = [];
  const seen = new Set<string>();
  for (const e of evidence) {
    if (!e.findings || !counts(e)) continue;
    for (const f of e.findings) {
      if (seen.has(f.message)) continue;
      seen.add(f.message);
      out.push({ ...f, docId: e.docId, sentenceIndex: e.sentenceIndex });
    }
  }
  return out;
}

/** A verdict, and (by-document, evidence from several documents) the document whose evidence decided it. */
export interface Decision {
  label: Label;
  probs: LabelProbs;
  decidedBy?: { docId: string; title: string };
  /** The claim's most entailed counter-claim on the deciding evidence (Verdict.opposite). */
  opposite?: Opposite;
  /** The model's own reading, when a decisive finding overruled it (Verdict.overruled). */
  overruled?: { label: Label; probs: LabelProbs; finding: VerdictFinding };
}

function withDecidingDocument(groups: readonly (readonly EvidenceSentence[])[], decisions: { label: Label; probs: LabelProbs; opposite?: Opposite; overruled?: Decision['overruled'] }[]): Decision {
  const chosen = decideAcrossDocuments(decisions)!;
  // Said only when it tells the reader something: which of several documents the verdict rests on. When no
  // document takes a side there is none to name.
  if (groups.length < 2 || chosen.label === 'NOT ENOUGH INFO') return chosen;
  const first = groups[decisions.indexOf(chosen)]![0]!;
  return { ...chosen, decidedBy: { docId: first.docId, title: first.title } };
}

/** Evidence sentences grouped by document, groups in order of their best sentence. */
export function groupByDocument(evidence: readonly EvidenceSentence[]): EvidenceSentence[][] {
  const groups = new Map<string, EvidenceSentence[]>();
  for (const e of evidence) {
    const g = groups.get(e.docId);
    if (g) g.push(e);
    else groups.set(e.docId, [e]);
  }
  return [...groups.values()];
}
