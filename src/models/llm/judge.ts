/**
 * An LLM as the NLI model of a profile (EntailmentModel): each (evidence, claim) pair is one grounding
 * prompt (prompt.ts), read three ways (answer.ts). Requests go through the concurrency limit, the disk
 * cache and the call budget; with `judge: 'uncertain'` (the cascade) the offline head reads every pair
 * first and only the pairs it leaves uncertain reach the server. A reply that cannot be read is a reading
 * that needs review (equal probabilities, the reason in the pair's note), never an exception; a server
 * that stays unreachable after the retries fails the run with what to check.
 */
import type { EntailmentModel, EntailmentPair, EntailmentProbs, ModelInfo } from '../types.js';
import { readAnswer, type JudgeReading } from './answer.js';
import type { AnswerCache } from './cache.js';
import { cacheKey } from './cache.js';
import { MalformedReplyError, type ChatClient, type ChatResult } from './chat.js';
import type { JudgeMode, LlmConfig } from './config.js';
import { LlmHttpError, type RetryPolicy } from './http.js';
import type { Limiter } from './limiter.js';
import { groundingMessages } from './prompt.js';
import { costOf, type UsageTally } from './usage.js';

/** What the judge made of one pair, attached to its probabilities (non-enumerable: JSON and score maps skip it). */
export interface JudgeNote {
  by: 'llm' | 'offline';
  from?: JudgeReading['from'];
  label?: string;
  quotes?: string[];
  dropped?: string[];
  review?: string;
  cached?: boolean;
}

export function judgeNoteOf(p: EntailmentProbs): JudgeNote | undefined {
  return (p as EntailmentProbs & { judge?: JudgeNote }).judge;
}

function withNote(p: EntailmentProbs, note: JudgeNote): EntailmentProbs {
  const out = { entailment: p.entailment, neutral: p.neutral, contradiction: p.contradiction };
  Object.defineProperty(out, 'judge', { value: note, enumerable: false });
  return out;
}

export interface LlmJudgeOptions {
  client: ChatClient;
  config: LlmConfig;
  info: ModelInfo;
  limiter: Limiter;
  tally: UsageTally;
  cache?: AnswerCache;
  mode?: JudgeMode;
  /** Requests this judge may send (cache hits are free); past it the offline head reads the pair. */
  maxCalls?: number;
  /** The offline head (cascade, budget): loaded on first need. */
  offline?: () => Promise<EntailmentModel>;
  /** Retry waits (tests shorten them) and retry lines. */
  retry?: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'onRetry'>;
}

/** Pairs whose reading needs review, remembered for reviewOf (the most recent; older ones are forgotten). */
const REVIEWS_KEPT = 10_000;
const pairKey = (p: EntailmentPair) => `${p.premise}\u0000${p.hypothesis}`;

export class LlmJudge implements EntailmentModel {
  readonly info: ModelInfo;
  readonly mode: JudgeMode;
  private readonly reviews = new Map<string, string>();

  constructor(private readonly o: LlmJudgeOptions) {
    this.info = o.info;
    this.mode = o.mode ?? o.config.judge;
  }

  get tally(): UsageTally {
    return this.o.tally;
  }

  async predict(pairs: EntailmentPair[], signal?: AbortSignal): Promise<EntailmentProbs[]> {
    const t = this.o.tally;
    t.pairs += pairs.length;
    const out: (EntailmentProbs | undefined)[] = new Array(pairs.length);
    let ask = pairs.map((_, i) => i);
    let offline: EntailmentProbs[] | undefined;
    if (this.mode === 'uncertain') {
      offline = await this.offlineRead(pairs, signal);
      ask = [];
      offline.forEach((p, i) => {
        if (Math.max(p.entailment, p.neutral, p.contradiction) < this.o.config.uncertainBelow) ask.push(i);
        else {
          t.keptOffline++;
          out[i] = withNote(p, { by: 'offline' });
        }
      });
    }
    await Promise.all(
      ask.map(async (i) => {
        const pair = pairs[i]!;
        const r = await this.ask(pair, signal);
        if (r === 'over-budget') {
          t.overBudget++;
          offline ??= await this.offlineRead(pairs, signal);
          out[i] = withNote(offline[i]!, { by: 'offline', review: `over the call budget (--max-calls ${this.o.maxCalls}): read by the offline head` });
          return;
        }
        if (r.review && r.from === 'none') t.unreadable++;
        this.remember(pair, r.review);
        out[i] = withNote(r.probs, { by: 'llm', from: r.from, ...(r.label ? { label: r.label } : {}), quotes: r.quotes, dropped: r.dropped, ...(r.review ? { review: r.review } : {}), ...(r.cached ? { cached: true } : {}) });
      }),
    );
    return out as EntailmentProbs[];
  }

  reviewOf(pair: EntailmentPair): string | undefined {
    return this.reviews.get(pairKey(pair));
  }

  private remember(pair: EntailmentPair, review: string | undefined): void {
    const k = pairKey(pair);
    this.reviews.delete(k);
    if (!review) return;
    this.reviews.set(k, review);
    if (this.reviews.size > REVIEWS_KEPT) this.reviews.delete(this.reviews.keys().next().value!);
  }

  private offlinePromise: Promise<EntailmentModel> | undefined;

  private async offlineRead(pairs: EntailmentPair[], signal?: AbortSignal): Promise<EntailmentProbs[]> {
    if (!this.o.offline) throw new Error('this judge has no offline head for the cascade or the call budget');
    this.offlinePromise ??= this.o.offline();
    return (await this.offlinePromise).predict(pairs, signal);
  }

  /** One pair: from the cache, else one request (within the budget), read as an answer. */
  private async ask(pair: EntailmentPair, signal?: AbortSignal): Promise<(JudgeReading & { cached?: boolean }) | 'over-budget'> {
    const { client, config, cache, limiter, tally } = this.o;
    const messages = groundingMessages(pair.premise, pair.hypothesis);
    const key = cacheKey({ engine: client.engine, server: client.server, model: client.model, messages, params: config.params });
    const hit = await cache?.get(key);
    // A reply that could not be read is no answer to keep: asked again (a fixed server is heard, not its old failure).
    const cached = hit ? readAnswer(hit.content, hit.tokens, pair.premise) : undefined;
    if (cached && cached.from !== 'none') {
      tally.cacheHits++;
      return { ...cached, cached: true };
    }
    if (this.o.maxCalls !== undefined && tally.calls >= this.o.maxCalls) return 'over-budget';
    tally.calls++;
    let result: ChatResult;
    try {
      result = await limiter.run(() => client.chat(messages, config.params, { retries: config.retries, timeoutMs: config.timeoutMs, ...(signal ? { signal } : {}), ...(this.o.retry ?? {}) }));
    } catch (e) {
      // A reply that is not the API's shape, or a body that is not JSON even after retries: needs review.
      if (e instanceof MalformedReplyError || (e instanceof LlmHttpError && e.status !== undefined && e.status < 300)) {
        return { probs: { entailment: 1 / 3, neutral: 1 / 3, contradiction: 1 / 3 }, from: 'none', quotes: [], dropped: [], review: `the server's reply could not be read: ${e.message}` };
      }
      throw e;
    }
    tally.inputTokens += result.usage.input;
    tally.outputTokens += result.usage.output;
    if (config.prices) tally.cost = costOf(tally.inputTokens, tally.outputTokens, config.prices);
    const reading = readAnswer(result.content, result.tokens, pair.premise);
    if (reading.from !== 'none') await cache?.set(key, result);
    return reading;
  }
}
