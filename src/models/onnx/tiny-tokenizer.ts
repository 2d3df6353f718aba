/**
 * A BERT WordPiece tokenizer (tokenizer.json + tokenizer_config.json) over a small fixed vocabulary, for the
 * tiny test model. Single letters and their `##` continuations are included so that any lowercase ASCII word
 * splits into pieces instead of collapsing to [UNK]: long texts then really produce long token sequences.
 */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

const WORDS = (
  'the a an of to in on at by for with from and or not no is are was were be been has have had it its this that ' +
  'these those there their they he she we you i as but if than then so such can may will would should could ' +
  'claim evidence true false support supports refute refutes study studies report reports data result results ' +
  'found show shows shown increase decrease risk effect patients trial vaccine drug cancer water earth moon sun ' +
  'city country river mountain year years born died president war paris france london england city capital ' +
  'population people new old first last large small high low more less most many some all none one two three'
).split(' ');

const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';
const PUNCTUATION = '.,;:!?\'"()-/%';

export function tinyVocabulary(): string[] {
  const vocab: string[] = [...SPECIAL_TOKENS];
  const seen = new Set<string>(vocab);
  const add = (t: string): void => {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  };
  for (const w of WORDS) add(w);
  for (const c of LETTERS) add(c);
  for (const c of LETTERS) add(`##${c}`);
  for (const c of PUNCTUATION) add(c);
  return vocab;
}

export function tinyTokenizerJson(vocab: string[]): object {
  const id = (t: string): number => vocab.indexOf(t);
  const special = (t: string, typeId: number): object => ({ SpecialToken: { id: t, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]', 0), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]', 0)],
      pair: [
        special('[CLS]', 0),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]', 0),
        { Sequence: { id: 'B', type_id: 1 } },
        special('[SEP]', 1),
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

export function tinyTokenizerConfig(modelMaxLength: number): object {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: modelMaxLength,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  };
}
