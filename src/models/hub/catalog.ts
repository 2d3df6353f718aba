/**
 * The recommended model profiles `veracite models pull <profile>` knows: exact hub repositories, the
 * revision the checksums were recorded for, and the SHA-256 and size of every file a profile downloads.
 *
 * Where the checksums and revisions come from (no hash below was computed by us, and none is made up;
 * re-checked against public sources for issue 29):
 * - nli-small (Xenova/nli-deberta-v3-xsmall @ 2a4f614a701367a02d51389039afc998faeda637): the SHA-256 of
 *   config.json, tokenizer.json, tokenizer_config.json and onnx/model_quantized.onnx are pinned at that
 *   commit by two independent public projects (a TypeScript NLI judge module that re-checked them against
 *   a fresh download at the commit, and a Python module of pinned files); sizes and the SHA-256 of
 *   special_tokens_map.json and added_tokens.json come from a public TypeScript model manifest and a
 *   Java installer that pin the same four hashes (by `main`). A file that differs at the commit is
 *   refused, never used.
 * - reranker (Xenova/ms-marco-MiniLM-L-6-v2 @ a09144355adeed5f58c8ed011d209bf8ee5a1fec): SHA-256 and size
 *   of onnx/model_quantized.onnx and the SHA-256 of vocab.txt as pinned at that commit by a public C#
 *   model allowlist (ModelSha256 / TokenizerSha256 / ModelByteSize); the SHA-256 of config.json,
 *   tokenizer.json and tokenizer_config.json as pinned at the same commit by a public TypeScript model
 *   loader that downloads `resolve/<commit>/<file>` and refuses a mismatch (its model_quantized.onnx
 *   hash is the one above; its tokenizer.json hash is also pinned at the commit by a public Dockerfile).
 * - embedder (Xenova/bge-small-en-v1.5 @ ea104dacec62c0de699686887e3f920caeb4f3e3): all five files, SHA-256
 *   as pinned at that commit by a public Dockerfile (BuildKit `ADD --checksum`) and, with their sizes, by
 *   a public fetch script (fetch-embedding-model.sh) that downloads the same commit.
 * - nli-base (Xenova/DeBERTa-v3-base-mnli-fever-anli, the int8 ONNX export of MoritzLaurer's MIT model): the
 *   SHA-256 of onnx/model_quantized.onnx as two public projects pin it (a Rust build script that refuses a
 *   mismatch, and a model manifest), and of tokenizer.json (the same build script); pinned at commit
 *   72a1ce83a0144efaf828b3c3844320a61197a53d, the commit a public project pins with the same ONNX and
 *   tokenizer hashes (issue 39). No checksum of config.json / tokenizer_config.json was found: those two are
 *   recorded at first download (and said so).
 *
 * Published figures are copied from the model cards (or the tables they link to), each with where it was
 * checked; a figure that could not be found in a public copy of its card is left out, not quoted from
 * memory. Sizes in MB are the pinned files' bytes where known; `cost` lines are rough expectations, not
 * measurements (see docs/MODELS.md).
 */

export type ProfileRole = 'nli' | 'scorer' | 'embedder';

export interface CatalogFile {
  path: string;
  /** Lower-case hex SHA-256; null when no published checksum was found (see the module comment). */
  sha256: string | null;
  size?: number;
  /** 'hub': the SHA-256 and size come from the hub's own listing (a hub-id pull), not pinned in a profile. */
  published?: 'hub';
}

export interface PublishedFigure {
  metric: string;
  value: number;
  /** Where the figure is published (model card, paper). */
  source: string;
}

export interface CatalogProfile {
  name: string;
  role: ProfileRole;
  /** Hub repository id (owner/name). */
  repo: string;
  /** Commit the checksums were recorded for, or a branch where none was published (see revisionNote). */
  revision: string;
  revisionNote?: string;
  /** Which ONNX file is loaded: fp32 = onnx/model.onnx, q8 = onnx/model_quantized.onnx. */
  dtype: 'fp32' | 'q8';
  /** Loader options of the role (e.g. CLS pooling for BGE). */
  options?: { pooling?: 'mean' | 'cls'; scoreAs?: 'logit' | 'probability' };
  files: CatalogFile[];
  licence: 'Apache-2.0' | 'MIT';
  /** The model it was converted from (licence and figures are that model's). */
  baseModel: string;
  sizeMB: number;
  improves: string;
  published: PublishedFigure[];
  cost: { cpu: string; cuda: string };
  /** Set when the profile cannot be pulled from the hub as listed (no pinned files): how to get it. */
  manual?: string;
}

export const CATALOG: readonly CatalogProfile[] = [
  {
    name: 'nli-small',
    role: 'nli',
    repo: 'Xenova/nli-deberta-v3-xsmall',
    revision: '2a4f614a701367a02d51389039afc998faeda637',
    revisionNote: 'the commit two public projects pin with these SHA-256 values; special_tokens_map.json and added_tokens.json were pinned by hash only (a changed file is refused)',
    dtype: 'q8',
    files: [
      { path: 'config.json', sha256: 'ec0bd14cc28640326474399cd61d38ccd52b64900228799d0f81debda8c4bc53', size: 1038 },
      { path: 'tokenizer.json', sha256: 'a86f883318afa11c8c10466f1bf4efaeb6ded28a52cbe57217a8fa0d0a2a87df', size: 8656551 },
      { path: 'tokenizer_config.json', sha256: 'd8d3bb123b99317634d5ee3d1d2d8b2ddb01510a0654687fc2639a5347a7291f', size: 384 },
      { path: 'special_tokens_map.json', sha256: '311de3f4eed9d76a43bf0d71f10e62e086ca65ccce9f15d5da0d2098bf519ecc', size: 173 },
      { path: 'added_tokens.json', sha256: 'dc046d04c9b0ada7ae6f1dc89c465801799acdf0c9a6aab8c15a1b2d5ca4e91f', size: 23 },
      { path: 'onnx/model_quantized.onnx', sha256: '3fac2500c45c75af42c7711de0d1b93d59577456100208be0dc1f9e8811946b6', size: 87246587 },
    ],
    licence: 'Apache-2.0',
    baseModel: 'cross-encoder/nli-deberta-v3-xsmall',
    sizeMB: 96,
    improves: 'verdicts (verify) and the audit\'s probability of support: an NLI cross-encoder reads the claim and the evidence together, where the offline head compares sentence vectors',
    published: [
      { metric: 'SNLI test accuracy (%)', value: 91.64, source: 'huggingface.co/cross-encoder/nli-deberta-v3-xsmall model card, "Performance" (checked in a public copy of the card: "Accuracy on SNLI-test dataset: 91.64")' },
      { metric: 'MNLI mismatched accuracy (%)', value: 87.77, source: 'same model card ("Accuracy on MNLI mismatched set: 87.77")' },
    ],
    cost: { cpu: 'rough, not measured: ~22M backbone parameters, int8: 10-20 ms per (claim, sentence) pair on one modern core', cuda: 'a few ms per batch of 32 pairs; the q8 file runs on CPU kernels, use an fp32 export for CUDA' },
  },
  {
    name: 'nli-base',
    role: 'nli',
    // Xenova's ONNX export of MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli (same weights, int8).
    repo: 'Xenova/DeBERTa-v3-base-mnli-fever-anli',
    revision: '72a1ce83a0144efaf828b3c3844320a61197a53d',
    revisionNote:
      'the commit a public project pins with the same ONNX and tokenizer SHA-256 values; the weights (onnx/model_quantized.onnx) and tokenizer.json are pinned by SHA-256 (a changed file is refused); config.json and tokenizer_config.json have no published checksum and are recorded (first seen) at download',
    dtype: 'q8',
    files: [
      { path: 'config.json', sha256: null },
      { path: 'tokenizer.json', sha256: 'a86f883318afa11c8c10466f1bf4efaeb6ded28a52cbe57217a8fa0d0a2a87df' },
      { path: 'tokenizer_config.json', sha256: null },
      { path: 'onnx/model_quantized.onnx', sha256: 'ab9da76bb06054ea6b921560c1ecf5683a9e4d96f0ea73d78d3b4a8990aea882' },
    ],
    licence: 'MIT',
    baseModel: 'MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli',
    // The int8 export's size as two public manifests give it (244,291,931 bytes).
    sizeMB: 244,
    improves: 'verdicts and the audit\'s probability of support, more than nli-small: trained on MNLI, FEVER-NLI and ANLI (evidence sentences, adversarial pairs)',
    // The card's model-index (Hub evaluation, "verified: true"). Its MNLI and FEVER-NLI figures could not be
    // checked in a public copy of the card and are left out.
    published: [
      { metric: 'ANLI test_r1 accuracy', value: 0.712, source: 'huggingface.co/MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli model card, model-index (anli plain_text test_r1, verified)' },
      { metric: 'ANLI test_r3 accuracy', value: 0.495, source: 'same model card, model-index (anli plain_text test_r3, verified)' },
    ],
    cost: { cpu: 'rough, not measured: ~184M parameters, about 8x the compute of nli-small; ~100-200 ms per pair on one core (int8)', cuda: 'the q8 file runs on CPU kernels: for CUDA export fp32 (optimum-cli export onnx --model MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli --task text-classification) and veracite models import it' },
  },
  {
    name: 'reranker',
    role: 'scorer',
    repo: 'Xenova/ms-marco-MiniLM-L-6-v2',
    revision: 'a09144355adeed5f58c8ed011d209bf8ee5a1fec',
    dtype: 'q8',
    options: { scoreAs: 'probability' },
    files: [
      { path: 'config.json', sha256: 'd827779a72d27ae68cf878a6fc2e954542663fe21ca515d9f4783fc96be2d37e' },
      { path: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66' },
      { path: 'tokenizer_config.json', sha256: '0b29c7bfc889e53b36d9dd3e686dd4300f6525110eaa98c76a5dafceb2029f53' },
      { path: 'vocab.txt', sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3' },
      { path: 'onnx/model_quantized.onnx', sha256: 'e9d8ebf845c413e981c175bfe49a3bfa9b3dcce2a3ba54875ee5df5a58639fbe', size: 23143499 },
    ],
    licence: 'Apache-2.0',
    baseModel: 'cross-encoder/ms-marco-MiniLM-L-6-v2',
    sizeMB: 24,
    improves: 'evidence sentence selection (verify) and the audit\'s engine score: a cross-encoder trained on MS MARCO passage ranking',
    published: [
      { metric: 'TREC DL 2019 nDCG@10', value: 74.3, source: 'huggingface.co/cross-encoder/ms-marco-MiniLM-L-6-v2 model card and sbert.net "MS MARCO Cross-Encoders" table (row cross-encoder/ms-marco-MiniLM-L-6-v2: 74.30 | 39.01 | 1800 docs/s)' },
      { metric: 'MS MARCO dev MRR@10', value: 39.01, source: 'same table' },
    ],
    cost: { cpu: 'rough, not measured: ~22M parameters, int8: ~2-5 ms per (query, sentence) pair on one core (the sbert.net table lists 1800 docs/s)', cuda: 'under 1 ms per pair in batches' },
  },
  {
    name: 'embedder',
    role: 'embedder',
    repo: 'Xenova/bge-small-en-v1.5',
    revision: 'ea104dacec62c0de699686887e3f920caeb4f3e3',
    dtype: 'fp32',
    options: { pooling: 'cls' },
    files: [
      { path: 'config.json', sha256: 'fa73f90bf92c8cace1fbcb709626306f2bdbc9ea3e5b5f94b440df9b6aa56350', size: 683 },
      { path: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66', size: 711396 },
      { path: 'tokenizer_config.json', sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3', size: 366 },
      { path: 'special_tokens_map.json', sha256: 'b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3', size: 125 },
      { path: 'onnx/model.onnx', sha256: '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35', size: 133093490 },
    ],
    licence: 'MIT',
    baseModel: 'BAAI/bge-small-en-v1.5',
    sizeMB: 134,
    improves: 'dense retrieval (hybrid search, verify\'s candidate documents, the audit\'s suggestions); an index must be re-embedded with it (veracite index --dense)',
    published: [
      { metric: 'MTEB average (56 datasets)', value: 62.17, source: 'huggingface.co/BAAI/bge-small-en-v1.5 model card, Evaluation, MTEB table (also FlagOpen/FlagEmbedding README: row BAAI/bge-small-en-v1.5 | 384 | 512 | 62.17 | 51.68)' },
      { metric: 'MTEB retrieval average (15 datasets)', value: 51.68, source: 'same table' },
    ],
    cost: { cpu: 'rough, not measured: ~33M parameters, 384 dims: ~5-10 ms per sentence on one core (indexing 1M passages takes hours on CPU)', cuda: '~1k sentences per second on one GPU' },
  },
];

export function catalogProfile(name: string, catalog: readonly CatalogProfile[] = CATALOG): CatalogProfile | undefined {
  return catalog.find((p) => p.name === name);
}
