/**
 * `veracite models add <name> --engine openai|ollama --base-url <url> --model <id>`: makes an LLM judge
 * a profile folder like a pulled model's (config.ts shows the layout), after one check that the server
 * answers (Ollama: the model is listed, with its digest). Nothing secret is written: the key's variable
 * name only. Adding again with other prices or limits keeps the calibration; with another server, model or
 * parameter the old calibration is removed (it was fitted to other readings).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { MANIFEST_FILE, type DownloadManifest } from '../hub/download.js';
import { modelsHome, profileDir, readPullInfo, writePullInfo } from '../hub/home.js';
import { PROFILE_FILE, repoFolder } from '../hub/profile.js';
import { LLM_CONFIG_FILE, LlmConfig, judgeIdentity, serverOf, type LlmConfigInput } from './config.js';
import { chatClientOf } from './load.js';
import { PROMPT_TEMPLATE_HASH } from './prompt.js';

export interface AddLlmOptions {
  name: string;
  home?: string;
  config: Omit<LlmConfigInput, 'format' | 'version'>;
  env?: NodeJS.ProcessEnv;
  /** Skip the server check (tests of the files only). */
  noCheck?: boolean;
}

export interface AddedLlm {
  name: string;
  dir: string;
  config: LlmConfig;
  /** True when an earlier calibration was removed because the judge's readings changed. */
  recalibrate: boolean;
  digest?: string;
}

export function llmRepo(name: string): string {
  return `llm/${name}`;
}

export async function addLlmProfile(o: AddLlmOptions): Promise<AddedLlm> {
  const home = modelsHome(o.home);
  const dir = profileDir(o.name, home);
  const repo = llmRepo(o.name);
  const previous = await readPullInfo(dir);
  if (previous && previous.repo !== repo) throw new Error(`${dir} holds the pulled model ${previous.repo}: veracite models remove ${o.name} first, or add under another name`);
  const parsed = LlmConfig.safeParse({ format: 'veracite-llm-judge', version: 1, ...o.config });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`models add: ${issue.path.join('.') || 'settings'}: ${issue.message}`);
  }
  let config = { ...parsed.data, baseUrl: serverOf(parsed.data.baseUrl) };
  const env = o.env ?? process.env;
  if (config.apiKeyEnv && !env[config.apiKeyEnv]) throw new Error(`--api-key-env ${config.apiKeyEnv}: the variable is not set (export ${config.apiKeyEnv}=... first; the key is read from it at each run, never stored)`);
  let digest: string | undefined;
  if (!o.noCheck) {
    const client = chatClientOf(config, env);
    const policy = { retries: 1, timeoutMs: Math.min(config.timeoutMs, 15_000) };
    if (client.digest) {
      digest = await client.digest(policy);
      if (!digest) throw new Error(`${config.baseUrl} has no model "${config.model}" (GET /api/tags): run "ollama pull ${config.model}" there first`);
      config = { ...config, digest };
    } else {
      // One tiny request: the server, the model name and the key are right before anything is calibrated.
      await client.chat([{ role: 'user', content: 'Answer with one word: SUPPORTED.' }], { ...config.params, maxTokens: 4 }, policy);
    }
  }
  const modelDir = join(dir, repoFolder(repo));
  const configPath = join(modelDir, LLM_CONFIG_FILE);
  let recalibrate = false;
  if (existsSync(configPath)) {
    const old = LlmConfig.safeParse(JSON.parse(await readFile(configPath, 'utf8').catch(() => '{}')));
    const same = old.success && JSON.stringify(judgeIdentity(old.data, PROMPT_TEMPLATE_HASH)) === JSON.stringify(judgeIdentity(config, PROMPT_TEMPLATE_HASH)) && old.data.judge === config.judge;
    if (!same && existsSync(join(dir, PROFILE_FILE))) {
      await rm(join(dir, PROFILE_FILE), { force: true });
      recalibrate = true;
    }
  }
  await writePullInfo(dir, { repo, revision: 'llm', role: 'nli', dtype: 'fp32' });
  await mkdir(modelDir, { recursive: true });
  const text = JSON.stringify(config, null, 2) + '\n';
  await writeFileAtomic(configPath, text);
  const manifest: DownloadManifest = {
    format: 'veracite-model-download',
    version: 1,
    repo,
    revision: 'llm',
    endpoint: config.baseUrl,
    files: [{ path: LLM_CONFIG_FILE, size: (await stat(configPath)).size, sha256: createHash('sha256').update(text).digest('hex'), verifiedBy: 'first-seen' }],
    completedAt: new Date().toISOString(),
  };
  // Written last, as a pull's: the folder is complete only with it.
  await writeFileAtomic(join(modelDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return { name: o.name, dir, config, recalibrate, ...(digest ? { digest } : {}) };
}
