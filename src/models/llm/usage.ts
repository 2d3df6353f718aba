/**
 * What judging cost: requests made, answers read from the cache, tokens in and out, calls the budget
 * (--max-calls) refused, pairs the offline head kept (the cascade), and the cost from the price table.
 * Every judge of the process registers its tally here, so a command prints one line at its end.
 */
import type { LlmPrices } from './config.js';

export interface UsageTally {
  profile: string;
  /** Pairs the judge was asked about. */
  pairs: number;
  /** Requests sent to the server (each retry counts once more in `attempts`). */
  calls: number;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  /** Pairs the offline head decided (cascade) and pairs left to it because the call budget was spent. */
  keptOffline: number;
  overBudget: number;
  /** Pairs whose answer could not be read (needs review). */
  unreadable: number;
  /** Cost at the price table's rates (cache hits cost nothing); absent without prices. */
  cost?: { amount: number; currency: string };
}

export function newTally(profile: string): UsageTally {
  return { profile, pairs: 0, calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, keptOffline: 0, overBudget: 0, unreadable: 0 };
}

export function costOf(inputTokens: number, outputTokens: number, prices: LlmPrices): { amount: number; currency: string } {
  return { amount: (inputTokens * prices.input + outputTokens * prices.output) / 1e6, currency: prices.currency };
}

const tallies: UsageTally[] = [];

export function registerTally(t: UsageTally): void {
  tallies.push(t);
}

/** Whether the tally is still counted for this run (not yet taken by takeJudgeUsage). */
export function isCurrent(t: UsageTally): boolean {
  return tallies.includes(t);
}

/** Every judge's tally in this process (usually one). */
export function judgeUsage(): readonly UsageTally[] {
  return tallies;
}

export function usageLine(t: UsageTally): string {
  const cost = t.cost ? `, cost ${t.cost.amount.toFixed(4)} ${t.cost.currency}` : ', cost: no price table (veracite models add ... --price-input --price-output)';
  const cascade = t.keptOffline ? `, ${t.keptOffline} decided by the offline head` : '';
  const budget = t.overBudget ? `, ${t.overBudget} over --max-calls (read by the offline head)` : '';
  const bad = t.unreadable ? `, ${t.unreadable} unreadable (needs review)` : '';
  return `LLM judge ${t.profile}: ${t.pairs} pairs, ${t.calls} calls, ${t.cacheHits} cache hits, ${t.inputTokens} tokens in, ${t.outputTokens} out${cascade}${budget}${bad}${cost}`;
}

/** The tallies with work in them, removed from the process list (a command prints them once, at its end). */
export function takeJudgeUsage(): UsageTally[] {
  const out = tallies.filter((t) => t.pairs > 0);
  tallies.length = 0;
  return out;
}
