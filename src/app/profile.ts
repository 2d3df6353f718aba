/**
 * Which model profile (`veracite models`) a pipeline uses: `models.profile` when given ('lite', 'offline' or
 * 'none': the Universal Sentence Encoder heads; 'verifier': the shipped cross-encoder), else, when no model
 * spec was changed from its default and no model is injected, the active one (the index's
 * veracite-models.json, else the models home's active.json), else the package's shipped engine
 * (models/hub/bundled.ts: the ONNX cross-encoder in models/verifier, calibrated in models/engine); a package
 * without it: the lite heads. A model loaded from an ONNX spec without a profile is refused for verdicts.
 */
import { loadBundledProfile } from '../models/hub/bundled.js';
import { activeProfileName, loadInstalledProfile, OFFLINE_PROFILE } from '../models/hub/home.js';
import { ProfileError, recalibrateAdvice, type LoadedProfile } from '../models/hub/profile.js';
import type { ModelSpec } from '../models/registry.js';
import { storeEngineOf } from '../store/open-store.js';
import { SettingsError } from '../util/settings-error.js';
import type { InjectedModels } from './models.js';
import type { Settings } from './settings.js';

export { ProfileError };

// The engine's roles: the retrieval embedder is not part of an engine (an index fixes it: app/index-embedder.ts).
const DEFAULT_SPECS = { scorer: 'trained', nli: 'trained' } as const;

export async function resolveProfile(settings: Settings, injected: InjectedModels = {}): Promise<LoadedProfile | undefined> {
  const m = settings.models;
  if (m.profile !== undefined) {
    if (OFFLINE_PROFILE.includes(m.profile)) return undefined;
    const changed = (['scorer', 'nli'] as const).filter((r) => m[r] !== DEFAULT_SPECS[r]);
    if (changed.length) throw new SettingsError('models.profile', `a model profile sets the models itself; drop ${changed.map((r) => `models.${r}`).join(', ')} or the profile`);
    try {
      return await loadInstalledProfile(m.profile);
    } catch (e) {
      if (e instanceof ProfileError) throw new SettingsError('models.profile', e.message);
      throw e;
    }
  }
  if (injected.embedder || injected.scorer || injected.entailment) return undefined;
  if ((['scorer', 'nli'] as const).some((r) => m[r] !== DEFAULT_SPECS[r])) return undefined;
  const dir = settings.index.dir && storeEngineOf(settings.index.dir) === 'lancedb' ? settings.index.dir : undefined;
  const active = await activeProfileName(dir ? { indexDir: dir } : {});
  if (!active) return loadShipped();
  if (OFFLINE_PROFILE.includes(active.name)) return undefined;
  try {
    return await loadInstalledProfile(active.name);
  } catch (e) {
    if (e instanceof ProfileError) throw new SettingsError('models.profile', `${e.message} (the active profile, from ${active.from}; "veracite models use verifier" goes back to the shipped engine, "veracite models use lite" to the lite heads)`);
    throw e;
  }
}

/**
 * The package's own engine, when its profile says it is the default (`"default": true`, set once it measured at
 * least as well as the lite heads: docs/RESULTS.md); else the lite heads, and the shipped engine is used when
 * named (`--profile verifier`). A broken one is an error naming the way round it, never a silent fall-back.
 */
async function loadShipped(): Promise<LoadedProfile | undefined> {
  try {
    const p = await loadBundledProfile();
    return p?.file.default ? p : undefined;
  } catch (e) {
    if (e instanceof ProfileError) throw new SettingsError('models.profile', `${e.message} (the shipped engine; --profile lite uses the lite heads)`);
    throw e;
  }
}

/** Verdicts need calibrated models: an ONNX NLI model or scorer given without a profile is refused. */
export function requireCalibrated(specs: { scorer: ModelSpec; nli: ModelSpec }, profile: LoadedProfile | undefined): void {
  if (profile) return;
  for (const [role, spec] of [['nli', specs.nli], ['scorer', specs.scorer]] as const) {
    if (spec.kind !== 'onnx') continue;
    throw new SettingsError(
      `models.${role}`,
      `${spec.ref} has no calibration: its scores would be judged with thresholds fitted to the offline heads. Make a profile for it ` +
        `(veracite models import ${spec.ref} --role ${role} --name <name>, which calibrates it, or veracite models pull <profile>) and use --profile <name>`,
    );
  }
}

/** The loaded model must be the one the profile was calibrated with (its weights hash). */
export function checkProfileModel(profile: LoadedProfile, info: { id: string; version: string }): void {
  if (info.version !== profile.file.modelInfo.version) {
    throw new SettingsError('models.profile', `profile "${profile.name}": the model's weights (${info.version}) are not the ones it was calibrated with (${profile.file.modelInfo.version}); ${profile.bundled ? recalibrateAdvice(profile) : `pull it again or ${recalibrateAdvice(profile)}`}`);
  }
}
