/** Rule-made contrast twins of supported claims (training data and the contrast evaluation). */
export { applyRule, CONTRAST_RULES, RULE_LABEL, namesIn, type ContrastRule } from '../../models/align/contrast-rules.js';
export { countByRule, makeTwins, type ContrastTwin, type SupportedClaim, type TwinOptions } from '../../models/align/twins.js';
export { contrastNliPairs, REVERSE_RULES, sciFactContradicted, sciFactSupported, snliSupported, rteSupported, type ContrastSources } from './training-pairs.js';
