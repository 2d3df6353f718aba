/**
 * Which model fills each role. Defaults are offline: the Universal Sentence Encoder shipped in npm for
 * embeddings, and the heads this project trained (models/) for evidence scoring and entailment. A user
 * with ONNX models (a local folder or a hub id when online) passes them instead; the pipeline only sees
 * the role interfaces.
 */
import type { EntailmentModel, Embedder, PairScorer } from './types.js';
import type { OnnxLoadOptions } from './onnx/load.js';

export interface ModelSpecs {
  /** 'use' (default), or an ONNX embedder folder / hub id. */
  embedder?: string;
  /** 'trained' (default), or an ONNX cross-encoder folder / hub id. */
  scorer?: string;
  /** 'trained' (default), or an ONNX NLI model folder / hub id. */
  nli?: string;
  onnx?: OnnxLoadOptions;
}

let useEmbedder: Promise<Embedder> | undefined;

export async function loadEmbedder(spec = 'use', onnx: OnnxLoadOptions = {}): Promise<Embedder> {
  if (spec === 'use') {
    // One USE instance per process: loading it costs ~0.5 s and its memory is shared by every caller.
    useEmbedder ??= import('./use/index.js').then((m) => m.createUseEmbedder());
    return useEmbedder;
  }
  const { OnnxEmbedder } = await import('./onnx/embedder.js');
  return OnnxEmbedder.load(spec, onnx);
}

export async function loadPairScorer(spec = 'trained', embedder?: Embedder, onnx: OnnxLoadOptions = {}): Promise<PairScorer> {
  if (spec === 'trained') {
    const { loadTrainedEvidenceScorer } = await import('./trained/index.js');
    return loadTrainedEvidenceScorer(embedder ?? (await loadEmbedder('use')));
  }
  const { OnnxPairScorer } = await import('./onnx/pair-scorer.js');
  return OnnxPairScorer.load(spec, onnx);
}

export async function loadEntailment(spec = 'trained', embedder?: Embedder, onnx: OnnxLoadOptions = {}): Promise<EntailmentModel> {
  if (spec === 'trained') {
    const { loadTrainedEntailment } = await import('./trained/index.js');
    return loadTrainedEntailment(embedder ?? (await loadEmbedder('use')));
  }
  const { OnnxEntailmentModel } = await import('./onnx/entailment.js');
  return OnnxEntailmentModel.load(spec, onnx);
}

/** The trained heads need the USE embedder whatever embedder retrieval uses. */
export async function loadVerifierModels(specs: ModelSpecs = {}): Promise<{ embedder: Embedder; scorer: PairScorer; entailment: EntailmentModel }> {
  const embedder = await loadEmbedder(specs.embedder ?? 'use', specs.onnx);
  const useForHeads = (specs.scorer ?? 'trained') === 'trained' || (specs.nli ?? 'trained') === 'trained' ? await loadEmbedder('use') : undefined;
  const [scorer, entailment] = await Promise.all([
    loadPairScorer(specs.scorer ?? 'trained', useForHeads, specs.onnx),
    loadEntailment(specs.nli ?? 'trained', useForHeads, specs.onnx),
  ]);
  return { embedder, scorer, entailment };
}
