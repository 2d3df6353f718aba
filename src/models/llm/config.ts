/**
 * An LLM judge's settings, written by `veracite models add` into the profile's model folder as
 * veracite-llm.json (the folder is then a profile like a pulled one: models/hub/profile.ts):
 *
 *   <models home>/<profile>/
 *   ├── veracite-pull.json           {repo: "llm/<profile>", role: "nli", ...}
 *   └── llm--<profile>/
 *       ├── veracite-llm.json        this file: engine, server, model, parameters, prices; NEVER a key
 *       └── veracite-download.json   its checksum: a changed file is refused until calibrated again
 *
 * The API key is read from the environment variable the file names (`apiKeyEnv`), at each request: it is
 * never written here, in a cache entry, a log, provenance or a report.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const LLM_CONFIG_FILE = 'veracite-llm.json';
export const LLM_ENGINES = ['openai', 'ollama'] as const;
export type LlmEngine = (typeof LLM_ENGINES)[number];
export const JUDGE_MODES = ['all', 'uncertain'] as const;
export type JudgeMode = (typeof JUDGE_MODES)[number];

export class LlmConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmConfigError';
  }
}

/** Sampling parameters sent with every request: part of the cache key and of the calibrated version. */
export const LlmParams = z
  .object({
    temperature: z.number().min(0).max(2).default(0),
    /** Sent where the API takes one (OpenAI `seed`, Ollama `options.seed`). */
    seed: z.number().int().default(13),
    /** Room for the label and one short quote. */
    maxTokens: z.number().int().positive().default(96),
    /** Alternatives per position asked for (OpenAI allows 0-20). */
    topLogprobs: z.number().int().min(0).max(20).default(5),
  })
  .strict();
export type LlmParams = z.infer<typeof LlmParams>;

/** Price per million tokens (any currency, named): costs are reported, never enforced. */
export const LlmPrices = z.object({ input: z.number().min(0), output: z.number().min(0), currency: z.string().min(1).default('USD') }).strict();
export type LlmPrices = z.infer<typeof LlmPrices>;

export const LlmConfig = z
  .object({
    format: z.literal('veracite-llm-judge'),
    version: z.literal(1),
    engine: z.enum(LLM_ENGINES),
    /** OpenAI-compatible: the base URL ending before /chat/completions (e.g. http://host:8000/v1). Ollama: http://host:11434. */
    baseUrl: z.string().url(),
    model: z.string().min(1),
    /** Name of the environment variable holding the API key (its value is never stored). */
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional(),
    /** Ollama: the model's digest from /api/tags when the profile was added (checked at load). */
    digest: z.string().optional(),
    params: LlmParams.default(() => LlmParams.parse({})),
    /** all: every (evidence, claim) pair; uncertain: only the pairs the offline head reads as uncertain. */
    judge: z.enum(JUDGE_MODES).default('all'),
    /** The offline head's top class probability below which a pair is uncertain (judge: uncertain). */
    uncertainBelow: z.number().gt(0).lte(1).default(0.9),
    /** Requests in flight at once, per process. */
    concurrency: z.number().int().positive().default(4),
    timeoutMs: z.number().int().positive().default(60_000),
    retries: z.number().int().min(0).default(4),
    prices: LlmPrices.optional(),
  })
  .strict();
export type LlmConfig = z.infer<typeof LlmConfig>;
export type LlmConfigInput = z.input<typeof LlmConfig>;

export function isLlmFolder(dir: string): boolean {
  return existsSync(join(dir, LLM_CONFIG_FILE));
}

export async function readLlmConfig(dir: string): Promise<LlmConfig> {
  const path = join(dir, LLM_CONFIG_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new LlmConfigError(`${path}: ${(e as Error).message}; add the profile again (veracite models add)`);
  }
  const r = LlmConfig.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new LlmConfigError(`${path}: field ${issue.path.join('.') || '(root)'}: ${issue.message}; add the profile again (veracite models add)`);
  }
  return r.data;
}

/** The server's URL as recorded (no credentials, no trailing slash). */
export function serverOf(baseUrl: string): string {
  const u = new URL(baseUrl);
  if (u.username || u.password) throw new LlmConfigError(`--base-url must not hold credentials (give the key with --api-key-env VAR)`);
  return u.toString().replace(/\/+$/, '');
}

/**
 * What a judge's readings depend on, hashed into its model version (ModelInfo.version): the profile's
 * calibration holds only while these stay the same. Prices, concurrency and timeouts are left out.
 */
export function judgeIdentity(c: LlmConfig, promptHash: string, digest?: string): Record<string, unknown> {
  return { engine: c.engine, server: serverOf(c.baseUrl), model: c.model, ...(digest ?? c.digest ? { digest: digest ?? c.digest } : {}), prompt: promptHash, params: c.params };
}

export function versionOf(identity: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 16);
}
