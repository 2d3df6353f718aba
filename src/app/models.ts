/**
 * The models of one pipeline, loaded on first use and then shared: a search that stays on BM25 never loads
 * the embedder, a server that never verifies never loads the entailment head. Tests and library users may
 * inject any role (fake models, their own ONNX instances); injected models are never disposed here.
 */
import { loadAlignResources, type AlignResources } from '../models/align/index.js';
import type { OnnxLoadOptions } from '../models/onnx/load.js';
import { formatModelSpec, loadEmbedder, loadEntailment, loadPairScorer, loadUse, needsUse, parseModelSpec, type ModelSpec } from '../models/registry.js';
import { mismatchError, oldEmbedderNotice, specOfRecorded, type IndexVectors } from './index-embedder.js';
import { sameVectorSpace } from '../store/dense-backfill.js';
import { MemoEmbedder } from '../models/memo-embedder.js';
import { MixedEntailment } from '../models/mix/mixed-entailment.js';
import type { Embedder, EntailmentModel, PairScorer } from '../models/types.js';
import { EmbeddingCache } from '../store/embedding-cache.js';
import type { LoadedProfile } from '../models/hub/profile.js';
import { profileSpecs } from '../models/hub/profile.js';
import type { Settings } from './settings.js';

export interface InjectedModels {
  embedder?: Embedder;
  scorer?: PairScorer;
  entailment?: EntailmentModel;
}

/** The audit's verification engine, with the memoising sentence encoder under it when it is a trained head. */
export interface Engine {
  scorer: PairScorer;
  /** The engine's Universal Sentence Encoder, memoised (an audit embeds the same pages for many claims). */
  embedder?: MemoEmbedder;
}

/** Vectors an audit keeps in memory: 200k 512-d vectors are ~400 MB, enough for a long article's pages. */
const ENGINE_MEMO_CAPACITY = 200_000;

export class ModelHub {
  readonly specs: { embedder: ModelSpec; scorer: ModelSpec; nli: ModelSpec };
  private readonly onnx: OnnxLoadOptions;
  private readonly cache = new Map<string, Promise<unknown>>();
  private readonly owned: { dispose?(): Promise<void> }[] = [];
  private embeddingCache: EmbeddingCache | undefined;
  private vectors: IndexVectors | undefined;
  private onNotice: (line: string) => void = () => {};

  constructor(
    private readonly settings: Settings['models'],
    private readonly injected: InjectedModels = {},
    /** The calibrated model profile (veracite models) whose model fills its role; app/profile.ts picks it. */
    readonly profile?: LoadedProfile,
  ) {
    // Parsed up front: a wrong spec fails before any index or model is opened. A profile sets the models of
    // the engine; the retrieval embedder is the settings' one unless the profile is an embedder's.
    const specs = profile ? profileSpecs(profile) : settings;
    const embedder = profile?.file.role === 'embedder' ? specs.embedder : settings.embedder;
    this.specs = { embedder: parseModelSpec('embedder', embedder), scorer: parseModelSpec('scorer', specs.scorer), nli: parseModelSpec('nli', specs.nli) };
    this.onnx = { device: settings.device };
  }

  /** An LLM judge's run options (--judge, --max-calls); an ONNX or trained model ignores them. */
  private llmOptions(): { llm: { mode?: 'all' | 'uncertain'; maxCalls?: number; profile?: string } } {
    const s = this.settings;
    return { llm: { ...(s.judge ? { mode: s.judge } : {}), ...(s.maxCalls !== undefined ? { maxCalls: s.maxCalls } : {}), ...(this.profile ? { profile: this.profile.name } : {}) } };
  }

  /** A pulled profile's model runs in a worker thread (models/onnx/threaded.ts): a verify never stalls the server. */
  private threadFor(role: 'scorer' | 'nli'): { thread?: true } {
    return this.profile?.file.role === role ? { thread: true } : {};
  }

  /** ONNX options of a role: the profile's file type and loader options for its own role. */
  private onnxFor(role: 'embedder' | 'scorer' | 'nli'): OnnxLoadOptions {
    const p = this.profile?.file;
    return p && p.role === role ? ({ ...this.onnx, dtype: p.dtype, ...(p.options ?? {}) } as OnnxLoadOptions) : this.onnx;
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.cache.set(key, p);
    }
    return p;
  }

  private own<T extends { dispose?(): Promise<void> }>(m: T): T {
    this.owned.push(m);
    return m;
  }

  /**
   * The index's vectors and whether an embedder was named (app/veracite.ts, once the index is open): the
   * retrieval embedder then matches the index (app/index-embedder.ts).
   */
  forIndex(vectors: IndexVectors, onNotice: (line: string) => void): void {
    this.vectors = vectors;
    this.onNotice = onNotice;
  }

  /** Whether the retrieval embedder was named (a flag, a setting, an embedder's profile) rather than the default. */
  get embedderNamed(): boolean {
    return this.vectors?.named ?? false;
  }

  /**
   * The retrieval embedder (dense queries, indexing with vectors): the model that made the index's vectors
   * when none is named (USE-lite for an index built before MiniLM, with a notice), else the named or default
   * one, refused when it is not the index's.
   */
  embedder(): Promise<Embedder> {
    if (this.injected.embedder) return Promise.resolve(this.injected.embedder);
    return this.once('embedder', async () => {
      const v = this.vectors;
      const recordedSpec = v?.recorded && !v.named ? specOfRecorded(v.recorded) : undefined;
      const spec = recordedSpec ? parseModelSpec('embedder', recordedSpec) : this.specs.embedder;
      const e = await this.loadRetrievalEmbedder(spec);
      if (v?.recorded && !sameVectorSpace(v.recorded, e.info)) throw mismatchError({ ...v, recorded: v.recorded }, e.info, formatModelSpec(this.specs.embedder));
      if (v && recordedSpec === 'use') this.onNotice(oldEmbedderNotice(v));
      return e;
    });
  }

  /** The embedder named, or the default, whatever the index holds: what `index --dense` embeds with. */
  configuredEmbedder(): Promise<Embedder> {
    if (this.injected.embedder) return Promise.resolve(this.injected.embedder);
    return this.loadRetrievalEmbedder(this.specs.embedder);
  }

  private loadRetrievalEmbedder(spec: ModelSpec): Promise<Embedder> {
    return this.once(`embedder:${formatModelSpec(spec)}`, async () => (spec.kind === 'use' ? loadUse() : this.own(await loadEmbedder(spec, this.onnxFor('embedder')))));
  }

  /** The Universal Sentence Encoder under the trained heads (one instance per process). */
  use(): Promise<Embedder> {
    return loadUse();
  }

  /** The verifier's evidence scorer (a trained head reads the plain USE, exactly as when its figures were measured). */
  scorer(): Promise<PairScorer> {
    if (this.injected.scorer) return Promise.resolve(this.injected.scorer);
    return this.once('scorer', async () => this.own(await loadPairScorer(this.specs.scorer, { onnx: this.onnxFor('scorer'), ...this.threadFor('scorer') })));
  }

  entailment(): Promise<EntailmentModel> {
    if (this.injected.entailment) return Promise.resolve(this.injected.entailment);
    return this.once('entailment', async () => this.mixed(this.own(await loadEntailment(this.specs.nli, { onnx: this.onnxFor('nli'), ...this.llmOptions(), ...this.threadFor('nli') }))));
  }

  /**
   * The audit's verification engine: the same scorer spec, over a memoising sentence encoder (pages cited
   * many times, candidates shared by neighbouring claims), optionally backed by the on-disk cache.
   */
  engine(): Promise<Engine> {
    if (this.injected.scorer) return Promise.resolve({ scorer: this.injected.scorer });
    return this.once('engine', async (): Promise<Engine> => {
      if (!needsUse(this.specs.scorer)) return { scorer: this.own(await loadPairScorer(this.specs.scorer, { onnx: this.onnxFor('scorer'), ...this.threadFor('scorer') })) };
      const use = await loadUse();
      this.embeddingCache = this.settings.cache ? await EmbeddingCache.open(this.settings.cache, use) : undefined;
      const embedder = this.own(new MemoEmbedder(use, { capacity: ENGINE_MEMO_CAPACITY, ...(this.embeddingCache ? { persist: this.embeddingCache } : {}) }));
      return { scorer: await loadPairScorer(this.specs.scorer, { use: embedder }), embedder };
    });
  }

  /**
   * The NLI model beside the audit's engine (the probability that a source supports the claim): a trained
   * head reads the engine's memoised encoder, so a page's sentences are embedded once for both.
   */
  engineEntailment(): Promise<EntailmentModel> {
    if (this.injected.entailment) return Promise.resolve(this.injected.entailment);
    return this.once('engine-entailment', async () => {
      const engine = await this.engine();
      if (needsUse(this.specs.nli) && !engine.embedder) return this.entailment();
      return this.mixed(this.own(await loadEntailment(this.specs.nli, { ...(engine.embedder ? { use: engine.embedder } : {}), onnx: this.onnxFor('nli'), ...this.llmOptions(), ...this.threadFor('nli') })), engine.embedder);
    });
  }

  /**
   * An NLI profile with a `mix` reads its model mixed with the one named there (models/mix/mixed-entailment.ts),
   * as it was calibrated; `use`: the engine's memoised encoder, for lite heads in the mix. Members are owned
   * (disposed) on their own.
   */
  private async mixed(model: EntailmentModel, use?: Embedder): Promise<EntailmentModel> {
    const mix = this.profile?.file.role === 'nli' ? this.profile.file.mix : undefined;
    if (!mix) return model;
    const other = this.own(await loadEntailment(mix.nli, use ? { use } : {}));
    return new MixedEntailment(model, other, mix.weight);
  }

  /**
   * WordNet and the word vectors the verifier's coverage and conflict checks and the trained heads' features
   * read (process-wide): loaded without a long synchronous step (a missing word-vector cache is built in a
   * worker thread), so that awaiting this keeps an event loop free and later uses return at once.
   */
  alignment(): Promise<AlignResources> {
    return this.once('alignment', () => loadAlignResources());
  }

  /** Disposes the models this hub loaded (the shared USE instance stays: it is one per process). */
  async close(): Promise<void> {
    for (const m of this.owned.splice(0)) await m.dispose?.();
    this.embeddingCache?.close();
    this.cache.clear();
  }
}
