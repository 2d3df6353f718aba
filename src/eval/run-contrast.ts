/**
 * `veracite eval contrast`: minimal-edit twins of SciFact DEV supported claims, checked against the same
 * evidence abstract. The twins are made by the same rules as the training twins (src/learn/contrast), with
 * another seed, so this is an IN-DISTRIBUTION check of what contrast training taught, not evidence that the
 * engine handles contradictions written otherwise.
 *
 * Contrast consistency = share of (original, twin) pairs where the original gets SUPPORTS and the twin does
 * not (a pair whose original is not SUPPORTED counts as inconsistent).
 *
 * Also the shuffled check: each dev claim paired with another claim's cited abstract (relevant to some
 * claim, not to this one) should come out NOT ENOUGH INFO.
 */
import { makeTwins, CONTRAST_RULES, type ContrastRule } from '../learn/contrast/index.js';
import type { Label } from '../verify/types.js';
import { shuffledPairs, type GoldClaim } from '../learn/verdict/collect-pairs.js';
import type { Verifier } from '../verify/verifier.js';

export interface ContrastClaim extends GoldClaim {
  id: number;
  evidence: Record<string, { label: string; sentences: number[] }[]>;
}

export interface ContrastPairResult {
  claimId: number;
  docId: string;
  rule: ContrastRule;
  original: string;
  twin: string;
  originalLabel: Label;
  twinLabel: Label;
  consistent: boolean;
}

export interface ContrastEvalResult {
  task: 'scifact-dev-contrast';
  note: string;
  seed: number;
  pairs: number;
  /** Share of pairs with original SUPPORTS and twin not SUPPORTS. */
  consistency: number;
  originalSupported: number;
  twinSupported: number;
  twinRefuted: number;
  byRule: Record<string, { pairs: number; consistency: number; twinRefuted: number }>;
  shuffled: { pairs: number; notEnoughInfo: number; labels: Record<Label, number> };
  examples: ContrastPairResult[];
}

export const CONTRAST_NOTE =
  'In-distribution check: the twins come from the same rules as the training twins (src/learn/contrast), applied to SciFact dev claims with another seed; it does not show that contradictions written otherwise are caught.';

/** Seed of the evaluation twins: not the training seed, so the rule choices differ from training. */
export const CONTRAST_EVAL_SEED = 20_27;

export async function runContrastEval(
  verifier: Verifier,
  claims: readonly ContrastClaim[],
  docSentences: (docId: string) => Promise<string[] | undefined>,
  opts: { seed?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<ContrastEvalResult> {
  const seed = opts.seed ?? CONTRAST_EVAL_SEED;
  // One supported (claim, abstract) per evidence abstract labelled SUPPORT.
  const supported: { claim: string; premises: string[]; group: string }[] = [];
  for (const c of claims) {
    for (const [docId, sets] of Object.entries(c.evidence)) {
      if (sets[0]?.label !== 'SUPPORT') continue;
      const sentences = await docSentences(docId);
      if (!sentences) continue;
      const idx = [...new Set(sets.flatMap((s) => s.sentences))].sort((a, b) => a - b);
      supported.push({ claim: c.claim, premises: idx.map((i) => sentences[i]).filter((s): s is string => !!s), group: `${c.id}|${docId}` });
    }
  }
  const twins = makeTwins(supported, seed, { tag: 'eval', perClaim: 1 });
  const shuffled = shuffledPairs(claims);
  const total = twins.length + shuffled.length;
  let done = 0;
  const originals = new Map<string, Label>();
  const results: ContrastPairResult[] = [];
  for (const t of twins) {
    const [claimId, docId] = t.group.split('|') as [string, string];
    let original = originals.get(t.group);
    if (!original) {
      original = (await verifier.verifyEachDocument(t.original, [docId]))[0]?.label ?? 'NOT ENOUGH INFO';
      originals.set(t.group, original);
    }
    const twin = (await verifier.verifyEachDocument(t.twin, [docId]))[0]?.label ?? 'NOT ENOUGH INFO';
    results.push({ claimId: Number(claimId), docId, rule: t.rule, original: t.original, twin: t.twin, originalLabel: original, twinLabel: twin, consistent: original === 'SUPPORTS' && twin !== 'SUPPORTS' });
    opts.onProgress?.(++done, total);
  }
  const labels: Record<Label, number> = { SUPPORTS: 0, REFUTES: 0, 'NOT ENOUGH INFO': 0 };
  for (const s of shuffled) {
    const v = (await verifier.verifyEachDocument(s.claim.claim, [s.docId]))[0];
    labels[v?.label ?? 'NOT ENOUGH INFO']++;
    opts.onProgress?.(++done, total);
  }
  const share = (xs: ContrastPairResult[], f: (r: ContrastPairResult) => boolean) => (xs.length ? xs.filter(f).length / xs.length : 0);
  const byRule: ContrastEvalResult['byRule'] = {};
  for (const rule of CONTRAST_RULES) {
    const xs = results.filter((r) => r.rule === rule);
    if (xs.length) byRule[rule] = { pairs: xs.length, consistency: share(xs, (r) => r.consistent), twinRefuted: share(xs, (r) => r.twinLabel === 'REFUTES') };
  }
  return {
    task: 'scifact-dev-contrast',
    note: CONTRAST_NOTE,
    seed,
    pairs: results.length,
    consistency: share(results, (r) => r.consistent),
    originalSupported: share(results, (r) => r.originalLabel === 'SUPPORTS'),
    twinSupported: share(results, (r) => r.twinLabel === 'SUPPORTS'),
    twinRefuted: share(results, (r) => r.twinLabel === 'REFUTES'),
    byRule,
    shuffled: { pairs: shuffled.length, notEnoughInfo: shuffled.length ? labels['NOT ENOUGH INFO'] / shuffled.length : 0, labels },
    examples: results.slice(0, 20),
  };
}
