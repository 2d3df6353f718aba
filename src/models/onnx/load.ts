import {
  AutoModel,
  AutoModelForSequenceClassification,
  AutoTokenizer,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BatchOptions, ModelInfo } from '../types.js';
import { CUDA_FIX, cudaAvailability } from './cuda.js';
import { InputEncoder } from './encode.js';
import { describeError, ModelLoadError } from './errors.js';
import { fileVersion, hubCachePath, onnxFileFor, resolveSource, type ModelSource, type OnnxDtype } from './resolve.js';

/** Options common to every ONNX-backed role. */
export interface OnnxLoadOptions extends BatchOptions {
  /** 'fp32' loads onnx/model.onnx, 'q8' loads onnx/model_quantized.onnx. Default 'fp32'. */
  dtype?: OnnxDtype;
  /** Default 'cpu'. 'cuda' fails with ModelLoadError unless onnxruntime-node has its CUDA provider. */
  device?: 'cpu' | 'cuda';
  /** onnxruntime intra-op threads (default: onnxruntime's choice, all cores). */
  threads?: number;
  /**
   * Never contact the hub, even for a spec that is not a local folder. Defaults to true when
   * HF_HUB_OFFLINE=1 or TRANSFORMERS_OFFLINE=1, else false.
   */
  offline?: boolean;
  /** Where hub downloads are cached (default transformers.js' env.cacheDir). */
  cacheDir?: string;
  /** Hub revision (branch, tag or commit). Default 'main'. Ignored for local folders. */
  revision?: string;
}

export interface LoadedOnnxModel {
  info: ModelInfo;
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  config: Record<string, unknown>;
  encoder: InputEncoder;
  batchSize: number;
  /** Folder (local) or hub id, used in error messages. */
  where: string;
  outputNames: string[];
}

const DEFAULT_BATCH = 32;
/**
 * Pair classification on the CPU: a verify sends the cross-encoder ~15 (claim, evidence) pairs of mixed length,
 * and one batch pads every pair to the longest. Median time per verify's pairs on 2 cores (verifier r3, int8):
 * batch 32 610 ms, 8 352 ms, 4 287 ms, 1 271 ms (docs/RESULTS.md, stop 49). Small batches, then; embeddings keep
 * 32 (an index's passages come sorted by length in thousands, so their batches hardly pad).
 */
const DEFAULT_PAIR_BATCH_CPU = 4;
/**
 * A dynamically quantized file (q8, onnx/model_quantized.onnx: what models/verifier and models/embedder ship)
 * quantizes each layer's activations with one scale for the whole batch tensor, padding included, so a text's
 * reading depends on the texts read with it. Measured (verifier r7, 310 audit premises and single sentences):
 * P(entailment) alone vs in batches of 4 differs by up to 0.35 (p95 0.14, 52 pairs by more than 0.05), and by up to
 * 0.29 between two orders at batch 4; MiniLM vectors alone vs in batches of 32 have cosine 0.985-1 (median 0.993).
 * A citation's verdict would then change with the article it is audited in. q8 reads one text at a time: on 2 CPU
 * cores that costs about nothing (30.0 vs 28.3 ms a pair at 1 vs 4; 24.3 vs 25.0 ms a text at 1 vs 32;
 * docs/RESULTS.md, stop 53). fp32 batches are exact (padding is masked) and keep their sizes.
 */
const DEFAULT_BATCH_Q8 = 1;
const DEFAULT_MAX_LENGTH = 512;

function positiveInt(name: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isInteger(v) && v > 0)) throw new RangeError(`${name} must be a positive integer, got ${v}`);
}

function envOffline(): boolean {
  return process.env.HF_HUB_OFFLINE === '1' || process.env.TRANSFORMERS_OFFLINE === '1';
}

/**
 * Longest input the model can take: the user's maxLength, capped by the position-embedding table
 * (RoBERTa-family tables reserve padding_idx + 1 = 2 slots) and the tokenizer's model_max_length.
 */
function effectiveMaxLength(requested: number | undefined, config: Record<string, unknown>, tokenizer: PreTrainedTokenizer): number {
  let max = requested ?? DEFAULT_MAX_LENGTH;
  const positions = config.max_position_embeddings;
  if (typeof positions === 'number' && positions > 0) {
    const offset = ['roberta', 'xlm-roberta', 'camembert', 'longformer'].includes(String(config.model_type)) ? 2 : 0;
    max = Math.min(max, positions - offset);
  }
  const tokMax = tokenizer.model_max_length;
  if (Number.isFinite(tokMax) && tokMax > 0 && tokMax < 1e6) max = Math.min(max, tokMax);
  return max;
}

function checkCuda(spec: string): void {
  const cuda = cudaAvailability();
  if (!cuda.available) {
    throw new ModelLoadError('cuda-unavailable', `device 'cuda' requested for ${spec}, but ${cuda.reason}. ${CUDA_FIX}`, {
      path: cuda.bindingDir,
    });
  }
}

async function loadTokenizer(source: ModelSource, where: string, pretrained: object): Promise<PreTrainedTokenizer> {
  try {
    return await AutoTokenizer.from_pretrained(source.ref, pretrained);
  } catch (e) {
    throw new ModelLoadError(
      source.kind === 'local' ? 'tokenizer-missing' : 'load-failed',
      `could not load the tokenizer of ${where}: ${describeError(e)}. ` +
        (source.kind === 'local'
          ? 'Replace tokenizer.json / tokenizer_config.json with the files from the model repository.'
          : `Check the hub id and your network; if you meant a local folder, nothing exists at ${path.resolve(source.ref)}.`),
      { path: where, cause: e },
    );
  }
}

async function loadSession(
  source: ModelSource,
  head: 'base' | 'sequence-classification',
  where: string,
  modelOptions: object,
  device: 'cpu' | 'cuda',
): Promise<PreTrainedModel> {
  const Auto = head === 'base' ? AutoModel : AutoModelForSequenceClassification;
  try {
    return await Auto.from_pretrained(source.ref, modelOptions);
  } catch (e) {
    const text = describeError(e);
    if (device === 'cuda' && /cuda|provider|libcu/i.test(text)) {
      throw new ModelLoadError(
        'cuda-unavailable',
        `onnxruntime could not start CUDA for ${where}: ${text}. Check the NVIDIA driver, CUDA 12 and cuDNN 9 libraries. ${CUDA_FIX}`,
        { path: where, cause: e },
      );
    }
    // onnxruntime's own load failures ("Load model from X failed: Protobuf parsing failed", "invalid
    // model", unsupported opset...) mean the file itself is bad; anything else is reported as is.
    if (source.kind === 'local' && /load model|protobuf|onnx|graph|opset|initializer/i.test(text)) {
      throw new ModelLoadError(
        'onnx-invalid',
        `onnxruntime could not load ${source.onnxPath}: ${text}. The file is corrupt, truncated or not an ONNX model; ` +
          're-download or re-export it (docs/MODELS.md).',
        { path: source.onnxPath, cause: e },
      );
    }
    const from = source.kind === 'local' ? `from ${where}` : `${where} from the hub`;
    throw new ModelLoadError('load-failed', `could not load ${from}: ${text}`, { path: where, cause: e });
  }
}

export async function loadOnnxModel(
  spec: string,
  head: 'base' | 'sequence-classification',
  options: OnnxLoadOptions = {},
): Promise<LoadedOnnxModel> {
  // No dtype asked: a local folder that ships only the int8 file (models/embedder, models/verifier) is read as
  // q8 rather than refused for lacking onnx/model.onnx.
  const dtype = options.dtype ?? (onlyQuantized(spec) ? 'q8' : 'fp32');
  const device = options.device ?? 'cpu';
  if (dtype !== 'fp32' && dtype !== 'q8') throw new RangeError(`dtype must be 'fp32' or 'q8', got ${String(dtype)}`);
  if (device !== 'cpu' && device !== 'cuda') throw new RangeError(`device must be 'cpu' or 'cuda', got ${String(device)}`);
  positiveInt('threads', options.threads);
  positiveInt('batchSize', options.batchSize);
  positiveInt('maxLength', options.maxLength);

  // Refuse CUDA before touching files: onnxruntime would otherwise log a native error and throw late.
  if (device === 'cuda') checkCuda(spec);

  const source = await resolveSource(spec, dtype, options.offline ?? envOffline());
  const where = source.ref;
  const revision = options.revision ?? 'main';
  // Per-call local_files_only rather than mutating the process-wide env.allowRemoteModels, which other
  // modules may rely on: a local folder is never looked up remotely.
  const pretrained = {
    local_files_only: source.kind === 'local',
    cache_dir: options.cacheDir,
    revision,
  };
  const tokenizer = await loadTokenizer(source, where, pretrained);
  const session_options: Record<string, unknown> = {};
  if (options.threads !== undefined) {
    session_options.intraOpNumThreads = options.threads;
    session_options.interOpNumThreads = 1; // BERT graphs are a single chain; parallel nodes gain nothing
  }
  // Explicit device (never 'auto', which errors instead of falling back) and dtype pin the exact file.
  const model = await loadSession(source, head, where, { ...pretrained, device, dtype, session_options }, device);

  const config = source.kind === 'local' ? source.config : (model.config as unknown as Record<string, unknown>);
  let version = 'unhashed';
  if (source.kind === 'local') {
    version = await fileVersion(source.onnxPath);
  } else {
    const cached = hubCachePath(options.cacheDir ?? env.cacheDir ?? '', source.id, revision, onnxFileFor(dtype));
    if (existsSync(cached)) version = await fileVersion(cached);
  }

  let encoder: InputEncoder;
  try {
    encoder = new InputEncoder(tokenizer, effectiveMaxLength(options.maxLength, config, tokenizer));
  } catch (e) {
    await model.dispose();
    throw e;
  }
  const session = (model.sessions as Record<string, { outputNames?: string[] }>).model;
  return {
    // The weights file by name (its hash is the version): provenance says which file judged (provenance/model-label.ts).
    info: { id: source.id, version, backend: 'onnx', file: source.kind === 'local' ? relativeFile(source.ref, source.onnxPath) : onnxFileFor(dtype) },
    tokenizer,
    model,
    config,
    encoder,
    batchSize: options.batchSize ?? (dtype === 'q8' ? DEFAULT_BATCH_Q8 : head === 'sequence-classification' && device === 'cpu' ? DEFAULT_PAIR_BATCH_CPU : DEFAULT_BATCH),
    where,
    outputNames: session?.outputNames ?? [],
  };
}

/** A local model folder with onnx/model_quantized.onnx and no onnx/model.onnx. */
function onlyQuantized(spec: string): boolean {
  const dir = path.resolve(spec);
  return existsSync(path.join(dir, onnxFileFor('q8'))) && !existsSync(path.join(dir, onnxFileFor('fp32')));
}

/** A weights file relative to its model folder, with forward slashes (the same on every platform). */
function relativeFile(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}
