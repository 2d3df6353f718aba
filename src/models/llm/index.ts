/** LLM judges (OpenAI-compatible servers, Ollama) as the NLI model of a profile: docs/MODELS.md. */
export { addLlmProfile, llmRepo, type AddLlmOptions, type AddedLlm } from './add.js';
export { isLlmFolder, JUDGE_MODES, LLM_ENGINES, LLM_CONFIG_FILE, type JudgeMode, type LlmConfig, type LlmEngine } from './config.js';
export { judgeNoteOf, LlmJudge, type JudgeNote } from './judge.js';
export { loadLlmJudge, type LlmLoadOptions } from './load.js';
export { PROMPT_TEMPLATE_HASH } from './prompt.js';
export { judgeUsage, usageLine, type UsageTally } from './usage.js';
