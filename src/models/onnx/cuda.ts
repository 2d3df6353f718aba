import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * CUDA detection. onnxruntime-node lists 'cuda' in listSupportedBackends() on linux/x64 even when the CUDA
 * execution-provider libraries were never downloaded (ONNXRUNTIME_NODE_INSTALL=skip, or an offline install),
 * so the list alone proves nothing. The install script drops the provider libraries next to the native
 * binding; their presence is what decides whether `device: 'cuda'` can work. We refuse up front rather than
 * let a session quietly run on CPU while the user believes it is on the GPU.
 */
export interface CudaAvailability {
  available: boolean;
  /** Folder holding onnxruntime_binding.node (where the provider libraries must be). */
  bindingDir: string | undefined;
  /** Provider libraries looked for and not found. */
  missing: string[];
  /** Human-readable reason when unavailable. */
  reason?: string;
}

/** What onnxruntime-node's install script (manifest `linux/x64:cuda12`) downloads next to the binding. */
const CUDA_PROVIDER_LIBRARIES = ['libonnxruntime_providers_shared.so', 'libonnxruntime_providers_cuda.so'];

/**
 * Resolve the onnxruntime-node copy that transformers.js itself loads (it may be nested under
 * @huggingface/transformers), so we inspect the binding that will actually run the model.
 */
function resolveOrt(): { dir: string; require: NodeJS.Require } | undefined {
  const here = createRequire(import.meta.url);
  let fromTransformers: NodeJS.Require = here;
  try {
    fromTransformers = createRequire(here.resolve('@huggingface/transformers'));
  } catch {
    // transformers.js not resolvable from CJS: fall back to our own resolution.
  }
  for (const req of [fromTransformers, here]) {
    try {
      // The package's main is dist/index.js; the package root is one level up.
      return { dir: path.dirname(path.dirname(req.resolve('onnxruntime-node'))), require: req };
    } catch {
      // try next
    }
  }
  return undefined;
}

/** The binding's own list; a build without 'cuda' in it can never run CUDA, whatever files exist. */
function bindingListsCuda(req: NodeJS.Require): boolean {
  try {
    const ort = req('onnxruntime-node') as { listSupportedBackends?: () => Array<{ name: string }> };
    return ort.listSupportedBackends?.().some((b) => b.name === 'cuda') ?? false;
  } catch {
    return false;
  }
}

export interface CudaProbe {
  platform?: NodeJS.Platform;
  arch?: string;
  /** Look for the provider libraries here instead of next to the installed binding (tests). */
  bindingDir?: string;
}

export function cudaAvailability(probe: CudaProbe = {}): CudaAvailability {
  const platform = probe.platform ?? process.platform;
  const arch = probe.arch ?? process.arch;
  const ort = resolveOrt();
  if (ort === undefined) {
    return { available: false, bindingDir: undefined, missing: [], reason: 'onnxruntime-node is not installed' };
  }
  const bindingDir = probe.bindingDir ?? path.join(ort.dir, 'bin', 'napi-v6', platform, arch);
  // onnxruntime-node ships CUDA only for linux/x64, and transformers.js only maps device 'cuda' there.
  if (!(platform === 'linux' && arch === 'x64')) {
    return {
      available: false,
      bindingDir,
      missing: [],
      reason: `onnxruntime-node has no CUDA build for ${platform}/${arch}`,
    };
  }
  const missing = CUDA_PROVIDER_LIBRARIES.filter((f) => !existsSync(path.join(bindingDir, f)));
  if (missing.length > 0) {
    return {
      available: false,
      bindingDir,
      missing,
      reason: `CUDA execution provider libraries not found in ${bindingDir} (missing: ${missing.join(', ')})`,
    };
  }
  if (platform === process.platform && arch === process.arch && !bindingListsCuda(ort.require)) {
    return { available: false, bindingDir, missing: [], reason: 'this onnxruntime-node build lists no CUDA backend' };
  }
  return { available: true, bindingDir, missing: [] };
}

/** The fix we print whenever CUDA was asked for and cannot be used. */
export const CUDA_FIX =
  'Reinstall onnxruntime-node WITHOUT ONNXRUNTIME_NODE_INSTALL=skip on a linux/x64 machine with internet access, ' +
  'an NVIDIA driver, CUDA 12 and cuDNN 9 (e.g. `rm -rf node_modules/onnxruntime-node && npm install`, or ' +
  '`ONNXRUNTIME_NODE_INSTALL=cuda12 npm rebuild onnxruntime-node`), or use device: \'cpu\'.';
