/**
 * `verify` reads the one decision (verify/decision.ts, issue 36): each document its evidence comes from is
 * judged against the claim exactly as `check` judges a (claim, source) pair (check-source.ts, the audit's
 * own path: the same scorer, support signal, calibrated probability, whole-source findings and decision),
 * so the same pair gets the same band and the same number in `verify`, `check`, the audit, the web page and
 * the gadget.
 *
 * The verdict's label then agrees with those decisions where they state a conflict in so many words: a
 * document that passes the verdict's relevance gate and whose decision rests on a decisive finding (another
 * figure, the opposite change, a negation, swapped groups, "no effect" against an effect) refutes the claim,
 * as the verifier's own findings do (verifier.ts `decisiveFinding`), in the same order across documents (the
 * most relevant document that takes a side decides). `check` reads every sentence of the source for such a
 * finding; the verifier reads only its best five evidence sentences, so a figure stated in a sentence the
 * evidence scorer ranks low ("37.5% of the BSGs ...") was missed by `verify` and caught by `check`.
 */
import type { Document } from '../corpus/types.js';
import { findingsOf } from '../verify/findings/findings.js';
import { passesGate, type AggregateConfig } from '../verify/aggregate.js';
import type { PairDecision } from '../verify/decision.js';
import type { DocumentDecision, Finding, Verdict, VerdictFinding } from '../verify/types.js';
import { refutedBy } from '../verify/verifier.js';
import { languageProblem, readLanguage } from '../text/language.js';

/**
 * Evidence documents decided per verdict: the most relevant ones that pass the verdict's relevance gate (it
 * takes no side on the others). Each costs about what `check` costs (0.4-1.2 s on 2 loaded cores for an
 * abstract), about as much as the verification itself.
 */
export const DECIDED_DOCUMENTS = 3;

export interface DocumentDecider {
  /** The documents, by id (the index's). */
  documents(ids: string[]): Promise<Document[]>;
  /**
   * The one decision for (claim, document), as `check` gives it, with the decisive finding it rests on;
   * undefined when the source could not be scored.
   */
  decide(claim: string, doc: Document, signal?: AbortSignal): Promise<{ decision: PairDecision; finding?: Finding } | undefined>;
  /** The verdict's relevance gate. */
  gate: AggregateConfig;
}

/** The verdict with each evidence document's decision, and its label refuted where a relevant document's decision rests on a decisive finding. */
export async function withDocumentDecisions(v: Verdict, decider: DocumentDecider, signal?: AbortSignal): Promise<Verdict> {
  // A claim that is not English: no document is decided (each would be "could not check", language), and the
  // verdict says so (text/language.ts); its label is the models' guess.
  const language = readLanguage(v.claim);
  const problem = languageProblem(language);
  if (problem) return { ...v, language: { claim: language, problem }, documentDecisions: [] };
  const relevance = new Map<string, number>();
  for (const e of v.evidence) relevance.set(e.docId, Math.max(relevance.get(e.docId) ?? -Infinity, e.score));
  const ids = [...relevance.keys()].filter((id) => passesGate(relevance.get(id)!, decider.gate)).slice(0, DECIDED_DOCUMENTS);
  if (!ids.length) return { ...v, documentDecisions: [] };
  const docs = new Map((await decider.documents(ids)).map((d) => [d.id, d]));
  const urls = new Map(v.evidence.filter((e) => e.url).map((e) => [e.docId, e.url!]));
  const decisions: DocumentDecision[] = [];
  const found = new Map<string, VerdictFinding>();
  for (const id of ids) {
    const doc = docs.get(id);
    if (!doc) continue;
    signal?.throwIfAborted();
    const decided = await decider.decide(v.claim, doc, signal);
    if (!decided) continue;
    const r = relevance.get(id)!;
    const url = urls.get(id) ?? doc.url;
    decisions.push({ docId: id, title: doc.title, ...(url ? { url } : {}), relevance: r, relevant: passesGate(r, decider.gate), decision: decided.decision });
    if (decided.decision.finding && decided.finding) found.set(id, locate(v.claim, decided.finding, id, doc.sentences));
  }
  return { ...refutedByDecisions(v, decisions, found), documentDecisions: decisions };
}

/**
 * The verdict as the by-document rule reads it with the decisions' findings: documents in order of relevance
 * (the evidence's order), the first that takes a side decides. A relevant document whose decision rests on a
 * decisive finding takes the side REFUTES; the verdict's deciding document (or, with one document, the
 * verdict's own side) takes the verdict's. An already refuting verdict is left as it is.
 */
export function refutedByDecisions(v: Verdict, decisions: readonly DocumentDecision[], findings: ReadonlyMap<string, VerdictFinding>): Verdict {
  if (v.label === 'REFUTES') return v;
  const deciding = v.decidedBy?.docId ?? (v.label !== 'NOT ENOUGH INFO' ? v.evidence[0]?.docId : undefined);
  for (const d of decisions) {
    const finding = findings.get(d.docId);
    if (d.relevant && finding) {
      const refuted = refutedBy(v, finding);
      return {
        ...refuted,
        confidence: refuted.probs.REFUTES,
        decidedBy: v.decidedBy?.docId === d.docId ? v.decidedBy : { docId: d.docId, title: d.title, ...(d.url ? { url: d.url } : {}) },
        findings: [finding, ...(v.findings ?? []).filter((f) => f.message !== finding.message)],
        // The figure the engine could not line up in the best sentences was lined up in the whole document.
        ...(v.engine && finding.kind === 'quantity' ? { engine: { ...v.engine, weakSpots: v.engine.weakSpots.filter((w) => w.kind !== 'unaligned-number') } } : {}),
      };
    }
    if (d.docId === deciding) return v;
  }
  return v;
}

/** A decision's finding as the verdict states findings: with the sentence that states it (-1: read across sentences). */
function locate(claim: string, finding: Finding, docId: string, sentences: readonly string[]): VerdictFinding {
  const at = sentences.findIndex((s) => findingsOf(claim, s).some((x) => x.message === finding.message));
  return { ...finding, docId, sentenceIndex: at };
}

