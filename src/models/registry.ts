/**
 * Which model fills each role, from one spec grammar shared by every command, the server and the library:
 *
 *   minilm             all-MiniLM-L6-v2 (int8 ONNX) shipped in the package, models/embedder (embedder; default)
 *   use                the Universal Sentence Encoder lite shipped in npm (embedder; the default before issue 43)
 *   trained            the head this project trained, models/<role>-head.json (scorer, nli; offline default)
 *   trained:<file>     other weights of the same format
 *   lexical            content-word overlap, no model (scorer only: fast tests, machines without weights)
 *   <folder>           an ONNX model folder (config.json, tokenizer files, onnx/model.onnx)
 *   <owner>/<name>     a Hugging Face hub id, downloaded when online
 *   <folder>           (nli) an LLM judge's folder, holding veracite-llm.json (`veracite models add`: models/llm)
 *
 * A spec that looks like a path and does not exist is reported as a missing folder, never tried on the hub
 * (onnx/resolve.ts). Errors name the setting (`models.scorer`), which the front ends map to their flags.
 */
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { SettingsError } from '../util/settings-error.js';
import type { OnnxLoadOptions } from './onnx/load.js';
import type { EntailmentModel, Embedder, PairScorer } from './types.js';
import { isLlmFolder } from './llm/config.js';
import type { LlmLoadOptions } from './llm/load.js';

export type ModelRole = 'embedder' | 'scorer' | 'nli';

export type ModelSpec =
  | { kind: 'use' }
  /** The package's own sentence embedder (models/embedder: all-MiniLM-L6-v2, int8 ONNX; its MODEL_CARD.md). */
  | { kind: 'minilm' }
  | { kind: 'trained'; file?: string }
  | { kind: 'lexical' }
  /** A local ONNX folder or a hub id: onnx/resolve.ts tells them apart when loading. */
  | { kind: 'onnx'; ref: string };

const SETTING: Record<ModelRole, string> = { embedder: 'models.embedder', scorer: 'models.scorer', nli: 'models.nli' };

/** One-line description of the accepted specs per role (help texts, error messages). */
export const MODEL_SPEC_HELP: Record<ModelRole, string> = {
  embedder: "'minilm' (default: all-MiniLM-L6-v2, shipped), 'use' (Universal Sentence Encoder lite, the embedder before), or an ONNX embedder folder / hub id",
  scorer: "'trained' (default), 'trained:<file>', 'lexical' (no model), or an ONNX cross-encoder folder / hub id",
  nli: "'trained' (default), 'trained:<file>', or an ONNX NLI model folder / hub id",
};

const KEYWORDS: Record<string, ModelRole[]> = { use: ['embedder'], minilm: ['embedder'], trained: ['scorer', 'nli'], lexical: ['scorer'] };

export function parseModelSpec(role: ModelRole, spec: string): ModelSpec {
  const s = spec.trim();
  if (!s) throw new SettingsError(SETTING[role], `empty model spec; use ${MODEL_SPEC_HELP[role]}`);
  const trainedFile = /^trained:(.+)$/.exec(s)?.[1];
  const keyword = trainedFile !== undefined ? 'trained' : s;
  const roles = KEYWORDS[keyword];
  if (roles && !roles.includes(role)) {
    throw new SettingsError(SETTING[role], `'${keyword}' is not a model for this role (it serves: ${roles.join(', ')}); use ${MODEL_SPEC_HELP[role]}`);
  }
  if (keyword === 'use') return { kind: 'use' };
  if (keyword === 'minilm') return { kind: 'minilm' };
  if (keyword === 'lexical') return { kind: 'lexical' };
  if (keyword === 'trained') return trainedFile ? { kind: 'trained', file: trainedFile } : { kind: 'trained' };
  return { kind: 'onnx', ref: s };
}

/** The spec as it is written (settings, provenance). */
export function formatModelSpec(spec: ModelSpec): string {
  switch (spec.kind) {
    case 'trained':
      return spec.file ? `trained:${spec.file}` : 'trained';
    case 'onnx':
      return spec.ref;
    default:
      return spec.kind;
  }
}

/** Whether the role's model is a head trained here, which reads Universal Sentence Encoder vectors. */
export function needsUse(spec: ModelSpec): boolean {
  return spec.kind === 'trained';
}

let useEmbedder: Promise<Embedder> | undefined;

/** The Universal Sentence Encoder: one instance per process (~0.5 s to load; its memory is shared by every caller). */
export function loadUse(): Promise<Embedder> {
  useEmbedder ??= import('./use/index.js').then((m) => m.createUseEmbedder());
  return useEmbedder;
}

/** The shipped embedder's folder and the name its vectors are recorded under in an index's settings. */
export const SHIPPED_EMBEDDER = { dir: () => join(packageRoot(), 'models', 'embedder'), id: 'all-MiniLM-L6-v2' } as const;

export async function loadEmbedder(spec: string | ModelSpec = 'minilm', onnx: OnnxLoadOptions = {}): Promise<Embedder> {
  const s = typeof spec === 'string' ? parseModelSpec('embedder', spec) : spec;
  if (s.kind === 'use') return loadUse();
  if (s.kind === 'minilm') {
    const { OnnxEmbedder } = await import('./onnx/embedder.js');
    return OnnxEmbedder.load(SHIPPED_EMBEDDER.dir(), { ...onnx, id: SHIPPED_EMBEDDER.id });
  }
  if (s.kind !== 'onnx') throw new SettingsError(SETTING.embedder, `'${formatModelSpec(s)}' is not an embedder; use ${MODEL_SPEC_HELP.embedder}`);
  const { OnnxEmbedder } = await import('./onnx/embedder.js');
  return OnnxEmbedder.load(s.ref, onnx);
}

/**
 * The evidence scorer / verification engine. `use` is the sentence encoder under a trained head (the
 * caller may pass a memoising wrapper of it); it is loaded when needed and not given.
 */
/**
 * `thread`: an ONNX model runs in a worker thread (onnx/threaded.ts), off the caller's event loop: what a
 * pulled profile's model does in the app (app/models.ts).
 */
export async function loadPairScorer(spec: string | ModelSpec = 'trained', opts: { use?: Embedder; onnx?: OnnxLoadOptions; thread?: boolean } = {}): Promise<PairScorer> {
  const s = typeof spec === 'string' ? parseModelSpec('scorer', spec) : spec;
  if (s.kind === 'lexical') {
    const { LexicalPairScorer } = await import('./lexical-scorer.js');
    return new LexicalPairScorer();
  }
  if (s.kind === 'trained') {
    const { loadTrainedEvidenceScorer } = await import('./trained/index.js');
    return loadTrainedEvidenceScorer(opts.use ?? (await loadUse()), s.file);
  }
  if (s.kind !== 'onnx') throw new SettingsError(SETTING.scorer, `'${formatModelSpec(s)}' is not a scorer; use ${MODEL_SPEC_HELP.scorer}`);
  if (isLlmFolder(s.ref)) throw new SettingsError(SETTING.scorer, `${s.ref} is an LLM judge: it reads entailment (models.nli), not evidence scores`);
  if (opts.thread) return (await import('./onnx/threaded.js')).loadThreadedPairScorer(s.ref, opts.onnx);
  const { OnnxPairScorer } = await import('./onnx/pair-scorer.js');
  return OnnxPairScorer.load(s.ref, opts.onnx);
}

export async function loadEntailment(spec: string | ModelSpec = 'trained', opts: { use?: Embedder; onnx?: OnnxLoadOptions; llm?: Omit<LlmLoadOptions, 'offline'>; thread?: boolean } = {}): Promise<EntailmentModel> {
  const s = typeof spec === 'string' ? parseModelSpec('nli', spec) : spec;
  if (s.kind === 'trained') {
    const { loadTrainedEntailment } = await import('./trained/index.js');
    return loadTrainedEntailment(opts.use ?? (await loadUse()), s.file);
  }
  if (s.kind !== 'onnx') throw new SettingsError(SETTING.nli, `'${formatModelSpec(s)}' is not an NLI model; use ${MODEL_SPEC_HELP.nli}`);
  if (isLlmFolder(s.ref)) {
    // An LLM judge; the offline head reads the pairs it is not asked about (cascade, call budget).
    const { loadLlmJudge } = await import('./llm/load.js');
    return loadLlmJudge(s.ref, { ...(opts.llm ?? {}), offline: () => loadEntailment('trained', opts.use ? { use: opts.use } : {}) });
  }
  if (opts.thread) return (await import('./onnx/threaded.js')).loadThreadedEntailment(s.ref, opts.onnx);
  const { OnnxEntailmentModel } = await import('./onnx/entailment.js');
  return OnnxEntailmentModel.load(s.ref, opts.onnx);
}
