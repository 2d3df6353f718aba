/**
 * A model profile: one pulled (or imported) model plus what it was calibrated to, stored beside the
 * weights:
 *
 *   <models home>/<profile>/
 *   ├── <owner>--<name>/              the model files, with veracite-download.json (written last)
 *   ├── verdict-calibration.json      verdict rule, relevance gate, probability calibrator (NLI / scorer profiles)
 *   ├── audit-calibration.json        the audit's flag threshold, support signal and probability (NLI / scorer profiles)
 *   ├── calibration-readings.jsonl    the model's readings of the samples, kept as made (a calibration resumes)
 *   └── veracite-profile.json         this file, written last by `veracite models calibrate`
 *
 * A folder without veracite-profile.json is installed but not calibrated: it is refused for verdicts.
 * The profile's hash (SHA-256 of its file) is in every verdict's provenance.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileRole } from './catalog.js';
import { readManifest, type DownloadManifest } from './download.js';
import { writeFileAtomic } from '../../util/atomic-file.js';

export const PROFILE_FILE = 'veracite-profile.json';
export const VERDICT_CALIBRATION_FILE = 'verdict-calibration.json';
export const AUDIT_CALIBRATION_FILE = 'audit-calibration.json';
export const REVIEW_FILE = 'verdict-review.json';
/** The model's readings of the calibration samples, kept as they are made (a calibration resumes from them). */
export const READINGS_FILE = 'calibration-readings.jsonl';

export class ProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileError';
  }
}

export interface ProfileFigures {
  /** Where each figure was measured (held-out samples shipped in data/samples). */
  /** `trainedOn`: how much of the sample the model itself was trained on (the shipped engine's, calibrate-engine.ts). */
  [name: string]: { value: number; n: number; data: string; note?: string; trainedOn?: string };
}

export interface ProfileFile {
  format: 'veracite-model-profile';
  version: 1;
  name: string;
  role: ProfileRole;
  repo: string;
  revision: string;
  dtype: 'fp32' | 'q8';
  options?: { pooling?: 'mean' | 'cls'; scoreAs?: 'logit' | 'probability'; pairOrder?: 'premise-first' | 'claim-first' };
  /** The model folder, relative to the profile folder. */
  model: string;
  /**
   * An NLI profile's model read mixed with another NLI model (models/mix/mixed-entailment.ts): that model's spec
   * ("trained": the lite heads) and this model's weight; the calibration was fitted on the mixture's readings.
   */
  mix?: ProfileMix;
  /** The loaded model's id and version (weights hash) when it was calibrated: a changed file is refused. */
  modelInfo: { id: string; version: string };
  /** Every role's spec the calibration was fitted with (the profile's own role is its model folder). */
  specs: { embedder: string; scorer: string; nli: string };
  /**
   * The calibration files, each by SHA-256 (a changed one is refused). `review`: the needs-review model fitted on
   * this engine's own decisions (`veracite tune-verdict --domains --profile`, src/verify/review.ts), when it has one.
   */
  calibration: { verdict?: { file: string; sha256: string }; audit?: { file: string; sha256: string }; review?: { file: string; sha256: string } };
  /** Figures reached on held-out shipped samples; a random model's mean nothing. */
  figures: ProfileFigures;
  /** The command and data the calibration ran on. */
  calibratedOn: { data: string[]; command: string };
  /** How many items of each sample the calibration read (`quick`: veracite models calibrate --quick). */
  samples?: { quick: boolean; train: number; dev: number; wice: number; snli: number };
  /**
   * The one decision's thresholds on this engine's probability of support (verify/decision.ts), fitted by
   * cross-validation on its own probabilities (scripts/learn/engine-bands.ts); absent: the lite heads' ones.
   */
  bands?: { supportedFrom: number; partlyFrom: number; notSupportedBelow: number; tagBelow: number; fittedBy?: string };
  /**
   * How many best sentences of a cited page this engine reads, joined, as its evidence (the audit, check; the
   * package's DEFAULT_SCORING.evidenceK when absent), chosen on held-out domains (scripts/learn/premise-choice.ts).
   * The audit calibration is fitted with it, and is found only for it (calibration.ts scoringHash).
   */
  scoring?: EngineScoring;
  /** The shipped engine only (models/hub/bundled.ts): whether it is the default engine when none is named or active. */
  default?: boolean;
  /** The sanity gates it passed (learn/verdict/sanity-gates.ts): each figure and its threshold. */
  gates?: { passed: boolean; checks: { name: string; passed: boolean; value: number; threshold: number; n: number; reason: string }[] };
  createdAt: string;
}

/** A profile's own evidence size (ProfileFile.scoring). */
export interface EngineScoring {
  evidenceK: number;
  /** What chose it (a command and its held-out figures). */
  chosenBy?: string;
}

export interface ProfileMix {
  nli: string;
  weight: number;
  /** How the weight was chosen (never on the samples the figures report). */
  chosenBy?: string;
}

/** A profile as the runtime uses it. */
export interface LoadedProfile {
  name: string;
  /** First 16 hex digits of the SHA-256 of veracite-profile.json. */
  hash: string;
  dir: string;
  file: ProfileFile;
  modelDir: string;
  verdictCalibration?: string;
  auditCalibration?: string;
  /** The needs-review model fitted on this profile's decisions (calibration.review), when it has one. */
  reviewModel?: string;
  /** The package's own engine (models/engine, or VERACITE_ENGINE_DIR): not installed by `veracite models`. */
  bundled?: boolean;
}

/**
 * What to do when a profile's model or calibration files are not the ones it was calibrated with: a pulled
 * profile is calibrated again by `veracite models`; the shipped engine is not installed by it (its files came with
 * the package, or were made by scripts/learn/calibrate-engine.ts).
 */
export function recalibrateAdvice(p: { name: string; dir: string; bundled?: boolean; file?: Pick<ProfileFile, 'calibratedOn'> }): string {
  if (!p.bundled) return `run veracite models calibrate ${p.name}`;
  const again = `calibrate it again (${p.file?.calibratedOn?.command ?? 'node --import tsx scripts/learn/calibrate-engine.ts'} --out ${p.dir}; docs/MODELS.md)`;
  // VERACITE_ENGINE_DIR names a re-calibrated copy: the package's own files are not the ones in question.
  if (process.env.VERACITE_ENGINE_DIR) return `the engine profile named by VERACITE_ENGINE_DIR does not match its model: ${again}, or unset VERACITE_ENGINE_DIR for the shipped engine`;
  return `the shipped engine's files were changed: reinstall veracite (or git checkout models/) to restore them, or ${again}; --profile lite uses the lite heads`;
}

export function profileHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The model folder name of a hub repository: owner--name. */
export function repoFolder(repo: string): string {
  return repo.replace(/\//g, '--');
}

/** The model folder of a profile directory: the one subfolder holding a download manifest. */
export async function modelFolderOf(dir: string, repo: string): Promise<{ path: string; manifest: DownloadManifest | undefined }> {
  const path = join(dir, repoFolder(repo));
  return { path, manifest: existsSync(path) ? await readManifest(path) : undefined };
}

/**
 * Reads a calibrated profile; a ProfileError saying what to do when it is not one. `bundled`: the profile
 * shipped in the package (models/hub/bundled.ts), whose model folder is committed beside it rather than
 * pulled: it has no download manifest, and its weights are held to the profile by their hash when loaded
 * (app/profile.ts checkProfileModel), as every profile's are.
 */
export async function loadProfile(dir: string, name: string, opts: { bundled?: boolean } = {}): Promise<LoadedProfile> {
  const p = join(dir, PROFILE_FILE);
  if (!existsSync(dir)) throw new ProfileError(`model profile "${name}" is not installed (no ${dir}): veracite models pull ${name}, or veracite models list`);
  if (!existsSync(p)) throw new ProfileError(`model profile "${name}" has no calibration (${p} missing): a model is never used for verdicts uncalibrated; run veracite models calibrate ${name}`);
  const text = await readFile(p, 'utf8');
  let file: ProfileFile;
  try {
    file = JSON.parse(text) as ProfileFile;
  } catch (e) {
    throw new ProfileError(`${p}: not valid JSON (${(e as Error).message}); run veracite models calibrate ${name}`);
  }
  if (file.format !== 'veracite-model-profile') throw new ProfileError(`${p}: not a veracite model profile`);
  const modelDir = join(dir, file.model);
  if (!opts.bundled && !(await readManifest(modelDir).catch(() => undefined))) {
    throw new ProfileError(`model profile "${name}": ${modelDir} is incomplete (no download manifest: a pull was interrupted); run veracite models pull ${name} again`);
  }
  const out: LoadedProfile = { name, hash: profileHash(text), dir, file, modelDir, ...(opts.bundled ? { bundled: true } : {}) };
  for (const kind of ['verdict', 'audit', 'review'] as const) {
    const c = file.calibration[kind];
    if (!c) continue;
    const path = join(dir, c.file);
    const sha = existsSync(path) ? createHash('sha256').update(await readFile(path)).digest('hex') : 'missing';
    if (sha !== c.sha256) throw new ProfileError(`model profile "${name}": ${path} is ${sha === 'missing' ? 'missing' : 'changed since calibration'}; ${recalibrateAdvice({ name, dir, file, ...(opts.bundled ? { bundled: true } : {}) })}`);
    if (kind === 'verdict') out.verdictCalibration = path;
    else if (kind === 'audit') out.auditCalibration = path;
    else out.reviewModel = path;
  }
  return out;
}

/** The role specs the profile sets: its own role is the model folder, the others what it was calibrated with. */
export function profileSpecs(p: LoadedProfile): { embedder: string; scorer: string; nli: string } {
  return { ...p.file.specs, [p.file.role]: p.modelDir };
}

/**
 * Adds a calibration file to a calibrated profile: written first, then its SHA-256 recorded in the profile (both
 * atomic), so that an interrupted write leaves the profile as it was. Returns the file's path.
 */
export async function writeProfileCalibration(dir: string, kind: 'review', text: string): Promise<string> {
  const p = join(dir, PROFILE_FILE);
  const file = JSON.parse(await readFile(p, 'utf8')) as ProfileFile;
  if (file.format !== 'veracite-model-profile') throw new ProfileError(`${p}: not a veracite model profile`);
  const name = REVIEW_FILE;
  await writeFileAtomic(join(dir, name), text);
  file.calibration = { ...file.calibration, [kind]: { file: name, sha256: createHash('sha256').update(text).digest('hex') } };
  await writeFileAtomic(p, JSON.stringify(file, null, 2) + '\n');
  return join(dir, name);
}

