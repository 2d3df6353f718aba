/**
 * Heads trained by this project (`veracite train`) on frozen USE embeddings + lexical features, with
 * weights committed under models/. These are the offline defaults for entailment and evidence scoring.
 */
export { TrainedEntailmentModel, loadTrainedEntailment, NLI_LABELS } from './entailment.js';
export { TrainedEvidenceScorer, loadTrainedEvidenceScorer } from './evidence-scorer.js';
export type { LoadHeadOptions } from './head.js';
export { TrainedModelError, type TrainedModelErrorCode, defaultWeightsPath } from './weights-io.js';
