/**
 * Contrast twins: for each supported claim, rule-made twins the same premises no longer support
 * (rules.ts). Seeded and deterministic: the same claims, seed and options give the same twins in the
 * same order. Used on training claims by `veracite train`, on SciFact dev claims (another seed) by
 * `veracite eval contrast`, and on the claim being verified for its counter-claims (verify/counter-claims.ts).
 */
import { analyseForAlignment } from './analyse.js';
import { Rng, subSeed } from '../../util/rng.js';
import { applyRule, CONTRAST_RULES, namesIn, RULE_LABEL, type ContrastRule } from './contrast-rules.js';

export interface SupportedClaim {
  claim: string;
  /** Texts that support the claim (rationale sentences, an SNLI premise). */
  premises: string[];
  /** Split group: twins stay on the side of their original. */
  group: string;
}

export interface ContrastTwin {
  original: string;
  twin: string;
  premises: string[];
  rule: ContrastRule;
  label: 'contradiction' | 'neutral';
  group: string;
}

export interface TwinOptions {
  rules?: readonly ContrastRule[];
  /** Most twins per claim (each from a different rule); default: one per rule that applies. */
  perClaim?: number;
  /** Sub-seed label, so two uses of one seed draw different streams. */
  tag?: string;
}

export function makeTwins(claims: readonly SupportedClaim[], seed: number, opts: TwinOptions = {}): ContrastTwin[] {
  const rng = new Rng(subSeed(seed, `contrast:${opts.tag ?? 'twins'}`));
  const rules = opts.rules ?? CONTRAST_RULES;
  const perClaim = opts.perClaim ?? rules.length;
  // Names to swap in: every name of the claim set, sorted so the pool does not depend on input order.
  const pool = [...new Set(claims.flatMap((c) => namesIn(c.claim).map((n) => n.name)))].sort();
  const out: ContrastTwin[] = [];
  for (const c of claims) {
    const analysis = analyseForAlignment(c.claim);
    let made = 0;
    for (const rule of rng.shuffle([...rules])) {
      if (made >= perClaim) break;
      const twin = applyRule(rule, c.claim, c.premises.join(' '), rng, pool, analysis);
      if (!twin) continue;
      out.push({ original: c.claim, twin, premises: c.premises, rule, label: RULE_LABEL[rule], group: c.group });
      made++;
    }
  }
  return out;
}

/** Twins per rule, for reports. */
export function countByRule(twins: readonly ContrastTwin[]): Record<ContrastRule, number> {
  const out = Object.fromEntries(CONTRAST_RULES.map((r) => [r, 0])) as Record<ContrastRule, number>;
  for (const t of twins) out[t.rule]++;
  return out;
}
