/**
 * ONNX backend (transformers.js + onnxruntime-node). tiny-model.ts is intentionally not exported: it needs
 * the onnx-proto devDependency and exists for tests.
 */
export { OnnxEmbedder, type OnnxEmbedderOptions } from './embedder.js';
export { OnnxPairScorer, type OnnxPairScorerOptions } from './pair-scorer.js';
export { OnnxEntailmentModel, type OnnxEntailmentOptions } from './entailment.js';
export type { OnnxLoadOptions } from './load.js';
export type { OnnxDtype } from './resolve.js';
export type { EntailmentIndices } from './labels.js';
export { POSITIVE_LABELS } from './labels.js';
export { ModelLoadError, type ModelLoadErrorCode } from './errors.js';
export { cudaAvailability, type CudaAvailability } from './cuda.js';
