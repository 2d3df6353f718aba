/**
 * One bound on the text any model reads, so a single huge input (a 50 MB "sentence" stored in an index,
 * a pasted page) costs bounded time and memory: tokenising all of it only to keep the first 128 or 512
 * tokens took 43 s and 3 GB for one `verify` (issue 12). The bound sits far above what the models keep
 * (USE reads 128 tokens, ONNX encoders their max length, at most a few characters per token), so every
 * ordinary input reaches the model unchanged.
 */

/** Characters of one text given to a model when it keeps at most ~512 tokens. */
export const MODEL_INPUT_MAX_CHARS = 16_384;

/**
 * `text` cut to at most `maxChars` characters, at the last whitespace before the bound when there is one
 * in the last tenth (so no half word is tokenised), never inside a surrogate pair.
 */
export function boundModelInput(text: string, maxChars = MODEL_INPUT_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  const space = text.slice(0, end).search(/\s\S*$/);
  return text.slice(0, space > maxChars * 0.9 ? space : end);
}

/** The bound for an encoder that keeps `maxTokens` tokens (long-context models get proportionally more). */
export function maxCharsForTokens(maxTokens: number): number {
  return Math.max(MODEL_INPUT_MAX_CHARS, maxTokens * 32);
}
