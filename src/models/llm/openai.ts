/**
 * Any OpenAI-compatible chat-completions server (OpenAI, vLLM, llama.cpp's server, LM Studio):
 * POST <base>/chat/completions with temperature, seed, max_tokens and `logprobs: true, top_logprobs: n`;
 * the answer is `choices[0].message.content`, the log-probabilities `choices[0].logprobs.content[]`
 * ({token, logprob, top_logprobs}), the token counts `usage.prompt_tokens` / `usage.completion_tokens`.
 * The key (when the profile names a variable) goes in the Authorization header only.
 */
import { isObject, MalformedReplyError, tokensOf, type ChatClient, type ChatResult } from './chat.js';
import { serverOf, type LlmParams } from './config.js';
import { requestJson, type RetryPolicy } from './http.js';
import type { ChatMessage } from './prompt.js';

export class OpenAiChatClient implements ChatClient {
  readonly engine = 'openai' as const;
  readonly server: string;

  constructor(
    baseUrl: string,
    readonly model: string,
    /** Read at each request, never kept in a field that is logged or serialised. */
    private readonly apiKey: () => string | undefined,
  ) {
    this.server = serverOf(baseUrl);
  }

  async chat(messages: ChatMessage[], params: LlmParams, policy: RetryPolicy): Promise<ChatResult> {
    const key = this.apiKey();
    const body = {
      model: this.model,
      messages,
      temperature: params.temperature,
      seed: params.seed,
      max_tokens: params.maxTokens,
      ...(params.topLogprobs > 0 ? { logprobs: true, top_logprobs: params.topLogprobs } : {}),
      stream: false,
    };
    const reply = await requestJson(`${this.server}/chat/completions`, { body, ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}) }, policy);
    return readChatCompletion(reply);
  }
}

export function readChatCompletion(reply: unknown): ChatResult {
  if (!isObject(reply) || !Array.isArray(reply.choices) || !reply.choices.length) throw new MalformedReplyError('not a chat completion (no choices)');
  const choice = reply.choices[0];
  if (!isObject(choice) || !isObject(choice.message)) throw new MalformedReplyError('choices[0] has no message');
  const content = choice.message.content;
  if (typeof content !== 'string') throw new MalformedReplyError('choices[0].message.content is not text');
  const usage = isObject(reply.usage) ? reply.usage : {};
  const tokens = isObject(choice.logprobs) ? tokensOf(choice.logprobs.content) : undefined;
  const servedBy = [reply.model, reply.system_fingerprint].filter((v): v is string => typeof v === 'string' && v.length > 0).join(' ');
  return {
    content,
    ...(tokens ? { tokens } : {}),
    usage: { input: Number(usage.prompt_tokens) || 0, output: Number(usage.completion_tokens) || 0 },
    ...(servedBy ? { servedBy } : {}),
  };
}
