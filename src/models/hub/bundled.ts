/**
 * The verification engine shipped in the package: a transformer cross-encoder (claim [SEP] passage ->
 * entailment / neutral / contradiction) fine-tuned and exported to ONNX by scripts/ (models/verifier/, its
 * MODEL_CARD.md gives the upstream pins and training data), calibrated like any pulled profile by
 * scripts/learn/calibrate-engine.ts, whose files sit in models/engine/:
 *
 *   models/verifier/                 the ONNX model, tokenizer and config (no network, no download)
 *   models/engine/
 *   ├── veracite-profile.json        model: "../verifier", its weights hash, the calibration files' SHA-256
 *   ├── verdict-calibration.json     verdict rule, relevance gate, probability calibrator
 *   └── audit-calibration.json       the audit's probability of support, flag threshold and bands
 *
 * It is the default engine of every command, the server and the library when no profile is named or made
 * active (app/profile.ts); `lite` (or `offline`) names the Universal Sentence Encoder heads instead. A
 * package without models/engine/veracite-profile.json (a checkout before the engine was committed) falls
 * back to the lite heads.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../util/package-root.js';
import { PROFILE_FILE, loadProfile, type LoadedProfile } from './profile.js';

/** The shipped engine's profile name (`--profile verifier`; reserved: no pulled profile may take it). */
export const ENGINE_PROFILE = 'verifier';

/** The shipped engine's profile folder; VERACITE_ENGINE_DIR names another (a re-calibrated copy, a dry run). */
export function bundledProfileDir(): string {
  return process.env.VERACITE_ENGINE_DIR ? resolve(process.env.VERACITE_ENGINE_DIR) : join(packageRoot(), 'models', 'engine');
}

/** Whether this package ships a calibrated engine. */
export function hasBundledProfile(dir = bundledProfileDir()): boolean {
  return existsSync(join(dir, PROFILE_FILE));
}

/** The shipped engine's profile, or undefined when this package has none. */
export async function loadBundledProfile(dir = bundledProfileDir()): Promise<LoadedProfile | undefined> {
  if (!hasBundledProfile(dir)) return undefined;
  return loadProfile(dir, ENGINE_PROFILE, { bundled: true });
}
