import { Tensor, type PreTrainedTokenizer } from '@huggingface/transformers';
import { boundModelInput, maxCharsForTokens } from '../bounded-input.js';

/**
 * Tokenisation with correct truncation. transformers.js truncates by chopping the final token ids
 * (`ids.length = max_length`), which drops the trailing [SEP] / </s> and, for pairs, always eats the
 * passage: the model then sees inputs it was never trained on. Here we tokenise without special tokens,
 * truncate the *content* (longest_first for pairs, like Hugging Face tokenizers), and only then let the
 * tokenizer's own post-processor add the special tokens, so any template (BERT, RoBERTa, DeBERTa) works
 * and a truncated input is identical to encoding its truncated prefix.
 */
export interface EncodedItem {
  ids: number[];
  typeIds: number[];
}

export interface ModelInputs {
  input_ids: Tensor;
  attention_mask: Tensor;
  token_type_ids: Tensor;
}

type PostProcessor = (tokens: string[], pair: string[] | null, addSpecial: boolean) => {
  tokens: string[];
  token_type_ids?: number[];
};

export class InputEncoder {
  readonly maxLength: number;
  private readonly specialsSingle: number;
  private readonly specialsPair: number;
  private readonly addedIds = new Map<string, number>();
  private readonly unkId: number;
  private readonly padId: number;

  constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    maxLength: number,
  ) {
    this.maxLength = maxLength;
    for (const [id, token] of tokenizer._tokenizer.get_added_tokens_decoder()) this.addedIds.set(token.content, id);
    this.unkId = tokenizer.unk_token_id ?? 0;
    this.padId = tokenizer.pad_token_id ?? 0;
    this.specialsSingle = this.postProcess([], null).tokens.length;
    this.specialsPair = this.postProcess([], []).tokens.length;
    if (maxLength < this.specialsPair + 2) {
      throw new RangeError(`maxLength ${maxLength} is too small: the tokenizer adds ${this.specialsPair} special tokens to a pair`);
    }
  }

  private postProcess(a: string[], b: string[] | null): { tokens: string[]; token_type_ids?: number[] } {
    const pp = this.tokenizer._tokenizer.post_processor as unknown as PostProcessor | null;
    if (pp === null) return { tokens: b === null ? a : [...a, ...b] };
    return pp(a, b, true);
  }

  private tokens(text: string): string[] {
    // Bounded first: at most maxLength tokens are kept, and tokenising a 50 MB text would take seconds.
    return this.tokenizer._tokenizer.tokenize(boundModelInput(text, maxCharsForTokens(this.maxLength)), { add_special_tokens: false });
  }

  /** Same lookup as the tokenizer's own encode(): added tokens first, then the model vocabulary, then UNK. */
  private id(token: string): number {
    return this.addedIds.get(token) ?? this.tokenizer._tokenizer.token_to_id(token) ?? this.unkId;
  }

  encode(text: string, pair: string | null = null): EncodedItem {
    let a = this.tokens(text);
    let b = pair === null ? null : this.tokens(pair);
    if (b === null) {
      a = a.slice(0, this.maxLength - this.specialsSingle);
    } else {
      const budget = this.maxLength - this.specialsPair;
      if (a.length + b.length > budget) {
        // longest_first: trim the longer sequence until both fit (ties trim the pair), in closed form.
        const keepA = Math.min(a.length, Math.max(budget - b.length, Math.ceil(budget / 2)));
        a = a.slice(0, keepA);
        b = b.slice(0, budget - keepA);
      }
    }
    const out = this.postProcess(a, b);
    return { ids: out.tokens.map((t) => this.id(t)), typeIds: out.token_type_ids ?? out.tokens.map(() => 0) };
  }

  /** Right-pads a batch to its longest item (absolute position embeddings need real tokens at 0..n-1). */
  batch(items: EncodedItem[]): ModelInputs {
    const seq = Math.max(1, ...items.map((x) => x.ids.length));
    const n = items.length * seq;
    const ids = new BigInt64Array(n).fill(BigInt(this.padId));
    const mask = new BigInt64Array(n);
    const types = new BigInt64Array(n);
    items.forEach((item, r) => {
      for (let c = 0; c < item.ids.length; c++) {
        ids[r * seq + c] = BigInt(item.ids[c]);
        mask[r * seq + c] = 1n;
        types[r * seq + c] = BigInt(item.typeIds[c] ?? 0);
      }
    });
    const dims = [items.length, seq];
    return {
      input_ids: new Tensor('int64', ids, dims),
      attention_mask: new Tensor('int64', mask, dims),
      token_type_ids: new Tensor('int64', types, dims),
    };
  }
}

/**
 * Runs `fn` over items in batches of similar length (sorted by token count, so little padding is wasted)
 * and returns results in input order.
 */
export async function runBatched<R>(
  items: EncodedItem[],
  batchSize: number,
  fn: (batch: EncodedItem[]) => Promise<R[]>,
): Promise<R[]> {
  const order = items.map((_, i) => i).sort((x, y) => items[x].ids.length - items[y].ids.length);
  const results = new Array<R>(items.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const idx = order.slice(start, start + batchSize);
    const out = await fn(idx.map((i) => items[i]));
    idx.forEach((i, k) => {
      results[i] = out[k];
    });
  }
  return results;
}
