/**
 * Ollama's native API: POST <base>/api/chat with `stream: false`, `options: {temperature, seed,
 * num_predict}` and `logprobs: true, top_logprobs: n`; the answer is `message.content`, the
 * log-probabilities `logprobs[]` ({token, logprob, top_logprobs}), the token counts `prompt_eval_count` /
 * `eval_count`. GET <base>/api/tags lists the installed models with their digest (provenance, and the
 * profile's calibration holds only for that digest).
 */
import { isObject, MalformedReplyError, tokensOf, type ChatClient, type ChatResult } from './chat.js';
import { serverOf, type LlmParams } from './config.js';
import { requestJson, type RetryPolicy } from './http.js';
import type { ChatMessage } from './prompt.js';

export class OllamaChatClient implements ChatClient {
  readonly engine = 'ollama' as const;
  readonly server: string;

  constructor(
    baseUrl: string,
    readonly model: string,
    private readonly apiKey: () => string | undefined,
  ) {
    this.server = serverOf(baseUrl);
  }

  private headers(): Record<string, string> {
    const key = this.apiKey();
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  async chat(messages: ChatMessage[], params: LlmParams, policy: RetryPolicy): Promise<ChatResult> {
    const body = {
      model: this.model,
      messages,
      stream: false,
      options: { temperature: params.temperature, seed: params.seed, num_predict: params.maxTokens },
      ...(params.topLogprobs > 0 ? { logprobs: true, top_logprobs: params.topLogprobs } : {}),
    };
    return readOllamaChat(await requestJson(`${this.server}/api/chat`, { body, headers: this.headers() }, policy));
  }

  async digest(policy: RetryPolicy): Promise<string | undefined> {
    const tags = await requestJson(`${this.server}/api/tags`, { method: 'GET', headers: this.headers() }, policy);
    if (!isObject(tags) || !Array.isArray(tags.models)) throw new MalformedReplyError(`${this.server}/api/tags: no models list`);
    const want = this.model.includes(':') ? [this.model] : [this.model, `${this.model}:latest`];
    const m = tags.models.find((x) => isObject(x) && (want.includes(String(x.name)) || want.includes(String(x.model))));
    return isObject(m) && typeof m.digest === 'string' ? m.digest : undefined;
  }
}

export function readOllamaChat(reply: unknown): ChatResult {
  if (!isObject(reply) || !isObject(reply.message) || typeof reply.message.content !== 'string') throw new MalformedReplyError('not an Ollama chat answer (no message.content)');
  const tokens = tokensOf(reply.logprobs);
  return {
    content: reply.message.content,
    ...(tokens ? { tokens } : {}),
    usage: { input: Number(reply.prompt_eval_count) || 0, output: Number(reply.eval_count) || 0 },
    ...(typeof reply.model === 'string' ? { servedBy: reply.model } : {}),
  };
}
