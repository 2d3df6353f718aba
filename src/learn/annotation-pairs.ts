/**
 * Annotations -> training data for `veracite train`.
 *
 * A blind comparison says which of two passages supports a claim better, or that neither does. As
 * pointwise (claim, passage, label) pairs, what that licenses is:
 *   - the chosen side's passage supports the claim            -> label "supports"
 *   - "neither": both passages fail to support it             -> two "not-supports" pairs
 *   - the side NOT chosen when the other was: only "worse", it may still support the claim, so it is
 *     left out by default (`unchosenAsNegative` adds it as "not-supports" for those who want it).
 * The passage is the evidence sentences that were highlighted (what the annotator read first), or all
 * sentences shown when none was marked.
 *
 * The trainer (src/models/trained) reads two formats, both produced here:
 *   - EvidencePair {claim, sentence, evidence, group, cited} for the evidence scorer;
 *   - LabelledPair {premise, hypothesis, y, group} for the NLI head, where "supports" is entailment and
 *     "not-supports" is the label SET {neutral, contradiction} (y is a bitmask of allowed classes, the
 *     same way GLUE RTE's "not_entailment" is read), since a bad source rarely contradicts the claim.
 * `group` is per claim (`annotation:<jobId>:<citationId>`), so splitByGroup keeps a claim's pairs on one
 * side of a train/dev split.
 */
import { CON, ENT, NEU, type EvidencePair, type LabelledPair } from './heads/data.js';
import { label } from './heads/softmax-regression.js';
import { readAnnotations } from '../annotations/annotation-store.js';
import type { Annotation, AnnotationSide } from '../annotations/types.js';

export const PAIR_LABELS = ['supports', 'not-supports'] as const;
export type PairLabel = (typeof PAIR_LABELS)[number];

export interface TrainingPair {
  claim: string;
  passage: string;
  label: PairLabel;
  group: string;
  /** The annotation it came from. */
  annotationId: string;
}

export interface ToPairsOptions {
  /** Also emit the unchosen side of an A/B choice as "not-supports" (default false). */
  unchosenAsNegative?: boolean;
}

function passageOf(side: AnnotationSide): string {
  return side.evidence.length ? side.evidence.join(' ') : side.text;
}

export function annotationToPairs(a: Annotation, opts: ToPairsOptions = {}): TrainingPair[] {
  const group = `annotation:${a.jobId}:${a.citationId}`;
  const pair = (side: AnnotationSide, l: PairLabel): TrainingPair => ({ claim: a.claim, passage: passageOf(side), label: l, group, annotationId: a.id });
  if (a.choice === 'neither') return [pair(a.a, 'not-supports'), pair(a.b, 'not-supports')];
  const [chosen, other] = a.choice === 'A' ? [a.a, a.b] : [a.b, a.a];
  const out = [pair(chosen, 'supports')];
  if (opts.unchosenAsNegative) out.push(pair(other, 'not-supports'));
  return out.filter((p) => p.passage.trim());
}

export function annotationsToPairs(annotations: Iterable<Annotation>, opts: ToPairsOptions = {}): TrainingPair[] {
  const out: TrainingPair[] = [];
  for (const a of annotations) out.push(...annotationToPairs(a, opts));
  return out;
}

/** For the evidence scorer (train-evidence.ts). */
export function toEvidencePairs(pairs: TrainingPair[]): EvidencePair[] {
  return pairs.map((p) => ({ claim: p.claim, sentence: p.passage, evidence: p.label === 'supports', group: p.group, cited: true }));
}

/** For the NLI head (train-nli.ts): premise = passage, hypothesis = claim. */
export function toNliPairs(pairs: TrainingPair[]): LabelledPair[] {
  return pairs.map((p) => ({
    premise: p.passage,
    hypothesis: p.claim,
    y: p.label === 'supports' ? label(ENT) : label(NEU) | label(CON),
    group: p.group,
  }));
}

/** Reads an annotations JSONL export and returns the pairs in both trainer formats. */
export async function loadAnnotationTrainingData(
  path: string,
  opts: ToPairsOptions = {},
): Promise<{ pairs: TrainingPair[]; evidence: EvidencePair[]; nli: LabelledPair[] }> {
  const annotations: Annotation[] = [];
  for await (const a of readAnnotations(path)) annotations.push(a);
  const pairs = annotationsToPairs(annotations, opts);
  return { pairs, evidence: toEvidencePairs(pairs), nli: toNliPairs(pairs) };
}
