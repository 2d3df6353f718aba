/** What a judge needs from any chat server: one completion, its label token's log-probabilities, token counts. */
import type { TokenLogprob } from './answer.js';
import type { LlmParams } from './config.js';
import type { RetryPolicy } from './http.js';
import type { ChatMessage } from './prompt.js';

export interface ChatResult {
  content: string;
  /** Per generated token, when the server returned log-probabilities. */
  tokens?: TokenLogprob[];
  usage: { input: number; output: number };
  /** What the server says it ran (OpenAI `model` / `system_fingerprint`), for provenance. */
  servedBy?: string;
}

export interface ChatClient {
  readonly engine: 'openai' | 'ollama';
  /** The server's URL as recorded (no credentials). */
  readonly server: string;
  readonly model: string;
  chat(messages: ChatMessage[], params: LlmParams, policy: RetryPolicy): Promise<ChatResult>;
  /** The model's digest where the server reports one (Ollama's /api/tags). */
  digest?(policy: RetryPolicy): Promise<string | undefined>;
}

/** A reply the client cannot read as its API's documented shape (then the pair needs review). */
export class MalformedReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedReplyError';
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Token entries in the shape both APIs use ({token, logprob, top_logprobs: [{token, logprob}]}). */
export function tokensOf(list: unknown): TokenLogprob[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: TokenLogprob[] = [];
  for (const e of list) {
    if (!isObject(e) || typeof e.token !== 'string' || typeof e.logprob !== 'number') return undefined;
    const top = Array.isArray(e.top_logprobs) ? e.top_logprobs.filter((t): t is { token: string; logprob: number } => isObject(t) && typeof t.token === 'string' && typeof t.logprob === 'number') : [];
    out.push({ token: e.token, logprob: e.logprob, top: top.map((t) => ({ token: t.token, logprob: t.logprob })) });
  }
  return out;
}
