import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ModelLoadError } from './errors.js';

/**
 * Decides whether a model spec is a local folder or a hub id, and validates local folders before
 * transformers.js sees them: its own errors for a missing or broken file are generic ("Could not locate
 * file"), ours name the exact path and the fix.
 */
export type OnnxDtype = 'fp32' | 'q8';

/** transformers.js file naming: dtype q8 -> suffix `_quantized` (see DEFAULT_DTYPE_SUFFIX_MAPPING). */
export function onnxFileFor(dtype: OnnxDtype): string {
  return dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
}

export interface LocalSource {
  kind: 'local';
  /** Absolute folder, passed to from_pretrained (absolute paths bypass env.localModelPath). */
  ref: string;
  id: string;
  onnxPath: string;
  config: Record<string, unknown>;
}

export interface HubSource {
  kind: 'hub';
  ref: string;
  id: string;
}

export type ModelSource = LocalSource | HubSource;

/** Hub ids are `owner/name` (or a legacy bare `name`); anything else can only be a path. */
const HUB_ID = /^[\w.-]+(\/[\w.-]+)?$/;

function looksLikePath(spec: string): boolean {
  return path.isAbsolute(spec) || /^(\.{1,2}|~)([/\\]|$)/.test(spec) || spec.includes('\\') || !HUB_ID.test(spec);
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

export async function resolveSource(spec: string, dtype: OnnxDtype, offline: boolean): Promise<ModelSource> {
  const abs = path.resolve(spec);
  if (existsSync(abs)) return validateLocal(abs, dtype);
  if (looksLikePath(spec)) {
    throw new ModelLoadError(
      'folder-missing',
      `model folder not found: ${abs}. Create it with config.json, tokenizer.json, tokenizer_config.json and ` +
        `${onnxFileFor(dtype)} (see docs/MODELS.md), or pass a Hugging Face hub id.`,
      { path: abs },
    );
  }
  if (offline) {
    throw new ModelLoadError(
      'remote-disabled',
      `"${spec}" is not a local folder (nothing at ${abs}) and offline mode forbids downloading it from the ` +
        'Hugging Face hub. Download/export the model on a machine with internet and pass its folder (see docs/MODELS.md), ' +
        'or load without offline: true.',
      { path: abs },
    );
  }
  return { kind: 'hub', ref: spec, id: spec };
}

async function validateLocal(dir: string, dtype: OnnxDtype): Promise<LocalSource> {
  if (!(await stat(dir)).isDirectory()) {
    throw new ModelLoadError('folder-missing', `model path is a file, not a folder: ${dir}. Pass the model folder.`, { path: dir });
  }
  const configPath = path.join(dir, 'config.json');
  if (!(await isFile(configPath))) {
    throw new ModelLoadError(
      'config-missing',
      `config.json missing: ${configPath}. Copy config.json from the model's hub repository / optimum export into the folder.`,
      { path: configPath },
    );
  }
  let config: unknown;
  try {
    config = JSON.parse(await readFile(configPath, 'utf8'));
  } catch (e) {
    throw new ModelLoadError(
      'config-invalid',
      `config.json is not valid JSON: ${configPath} (${(e as Error).message}). Re-download or re-export it.`,
      { path: configPath, cause: e },
    );
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new ModelLoadError('config-invalid', `config.json must hold a JSON object: ${configPath}. Re-download or re-export it.`, {
      path: configPath,
    });
  }
  for (const name of ['tokenizer.json', 'tokenizer_config.json']) {
    const p = path.join(dir, name);
    if (!(await isFile(p))) {
      throw new ModelLoadError(
        'tokenizer-missing',
        `${name} missing: ${p}. Copy the tokenizer files (tokenizer.json, tokenizer_config.json) from the model's ` +
          'hub repository; optimum-cli export onnx writes them too.',
        { path: p },
      );
    }
  }
  const onnxPath = path.join(dir, onnxFileFor(dtype));
  if (!(await isFile(onnxPath))) {
    const other: OnnxDtype = dtype === 'q8' ? 'fp32' : 'q8';
    const hint = (await isFile(path.join(dir, onnxFileFor(other))))
      ? ` ${onnxFileFor(other)} exists: use dtype '${other}'.`
      : ' Export it with optimum-cli export onnx (see docs/MODELS.md).';
    throw new ModelLoadError('onnx-missing', `ONNX file for dtype '${dtype}' missing: ${onnxPath}.${hint}`, { path: onnxPath });
  }
  return { kind: 'local', ref: dir, id: path.basename(dir), onnxPath, config: config as Record<string, unknown> };
}

/** Short content hash of a weights file: the ModelInfo.version recorded in provenance. */
export async function fileVersion(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}

/** Where transformers.js' file cache put a downloaded hub file (FileCache keys are `<id>[/<revision>]/<file>`). */
export function hubCachePath(cacheDir: string, id: string, revision: string, file: string): string {
  return revision === 'main' ? path.join(cacheDir, id, file) : path.join(cacheDir, id, revision, file);
}
