/**
 * Opens an LLM judge from its folder (veracite-llm.json): the client for its engine, the key from the
 * environment variable it names, the model's digest where the server reports one, the answer cache
 * beside the profile, and its ModelInfo, whose version hashes everything its readings depend on (a
 * changed server, model, digest, prompt or parameter is refused until the profile is calibrated again).
 */
import { dirname, join } from 'node:path';
import type { EntailmentModel, ModelInfo } from '../types.js';
import { AnswerCache } from './cache.js';
import type { ChatClient } from './chat.js';
import { judgeIdentity, readLlmConfig, serverOf, versionOf, type JudgeMode, type LlmConfig } from './config.js';
import type { RetryPolicy } from './http.js';
import { LlmJudge } from './judge.js';
import { Limiter } from './limiter.js';
import { OllamaChatClient } from './ollama.js';
import { OpenAiChatClient } from './openai.js';
import { PROMPT_TEMPLATE_HASH } from './prompt.js';
import { isCurrent, newTally, registerTally, type UsageTally } from './usage.js';

/**
 * One tally and one request limit per judge folder and run settings, shared by every instance a run
 * loads (a pipeline may load the NLI model twice: for verdicts and for the audit's engine), so that
 * --max-calls and --concurrency bound the run, not each instance. A tally taken by the run's report
 * starts a new one.
 */
const shared = new Map<string, { tally: UsageTally; limiter: Limiter }>();

export interface LlmLoadOptions {
  /** Overrides the profile's judge mode (--judge). */
  mode?: JudgeMode;
  /** Requests a run may send (--max-calls). */
  maxCalls?: number;
  /** The offline head, for the cascade and past the budget. */
  offline?: () => Promise<EntailmentModel>;
  /** Default: llm-cache/ in the profile folder. */
  cacheDir?: string;
  /** Name shown in the usage line (default: the profile folder's). */
  profile?: string;
  env?: NodeJS.ProcessEnv;
  retry?: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'onRetry'>;
}

export function chatClientOf(c: LlmConfig, env: NodeJS.ProcessEnv = process.env): ChatClient {
  // The key is read when a request is made, from the variable the profile names: never stored.
  const key = () => (c.apiKeyEnv ? env[c.apiKeyEnv] || undefined : undefined);
  return c.engine === 'openai' ? new OpenAiChatClient(c.baseUrl, c.model, key) : new OllamaChatClient(c.baseUrl, c.model, key);
}

export async function loadLlmJudge(dir: string, o: LlmLoadOptions = {}): Promise<LlmJudge> {
  const config = await readLlmConfig(dir);
  const env = o.env ?? process.env;
  if (config.apiKeyEnv && !env[config.apiKeyEnv]) throw new Error(`the LLM judge in ${dir} reads its API key from $${config.apiKeyEnv}, which is not set: export ${config.apiKeyEnv}=... and run again`);
  const client = chatClientOf(config, env);
  const policy = { retries: config.retries, timeoutMs: config.timeoutMs, ...(o.retry ?? {}) };
  const digest = client.digest ? await client.digest(policy) : undefined;
  if (client.engine === 'ollama' && !digest) throw new Error(`${serverOf(config.baseUrl)} has no model "${config.model}" (GET /api/tags): run "ollama pull ${config.model}" there`);
  const identity = judgeIdentity(config, PROMPT_TEMPLATE_HASH, digest);
  const mode = o.mode ?? config.judge;
  const info: ModelInfo = {
    id: `${config.engine}:${config.model}@${serverOf(config.baseUrl)}`,
    version: versionOf(identity),
    backend: 'llm',
    details: { ...identity, judge: mode, ...(o.maxCalls !== undefined ? { maxCalls: o.maxCalls } : {}) },
  };
  const profileDir = dirname(dir);
  const key = JSON.stringify([dir, mode, o.maxCalls ?? null, config, o.cacheDir ?? null]);
  let run = shared.get(key);
  if (!run || !isCurrent(run.tally)) {
    run = { tally: newTally(o.profile ?? profileDir.split(/[\\/]/).pop() ?? config.model), limiter: new Limiter(config.concurrency) };
    registerTally(run.tally);
    shared.set(key, run);
  }
  return new LlmJudge({
    client,
    config,
    info,
    limiter: run.limiter,
    tally: run.tally,
    cache: new AnswerCache(o.cacheDir ?? join(profileDir, 'llm-cache')),
    mode,
    ...(o.maxCalls !== undefined ? { maxCalls: o.maxCalls } : {}),
    ...(o.offline ? { offline: o.offline } : {}),
    ...(o.retry ? { retry: o.retry } : {}),
  });
}
