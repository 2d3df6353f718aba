/**
 * Claim-evidence alignment (models layer): wink-nlp analysis, WordNet 3.1 and word vectors read offline
 * from their npm packages, and the alignment features the trained heads use beside sentence embeddings.
 */
export { analyseForAlignment, type AlignAnalysis, type AlignToken, type Change, type Quantity } from './analyse.js';
export { ALIGN_DIM, ALIGN_FEATURE_NAMES, alignClaim, alignFeatures, alignResources, loadAlignResources, VECTOR_MIN, type AlignContext, type AlignResources } from './features.js';
export { changeOf, oppositeChange } from './lexicon.js';
export { WordNet, wordNet } from './wordnet.js';
export { WordVectors, ensureWordVectorCache, loadWordVectors, wordVectors, wordVectorCachePath, wordVectorsLoaded, wordVectorSource } from './word-vectors.js';
export { alignedBySentence, bestWindowCoverage, bestWindowCoverageDetail, coverageOf, type CoverageDetail, type WordWeight } from './coverage.js';
export { applyRule, CONTRAST_RULES, RULE_LABEL, namesIn, type ContrastRule } from './contrast-rules.js';
export { countByRule, makeTwins, type ContrastTwin, type SupportedClaim, type TwinOptions } from './twins.js';
