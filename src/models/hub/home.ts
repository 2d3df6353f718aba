/**
 * Where pulled models live and which profile is active:
 *
 *   $VERACITE_MODELS_DIR (default ~/.veracite/models)/
 *   ├── <profile>/ ...          one folder per profile (profile.ts)
 *   └── active.json             {"profile": "<name>"}: the default engine everywhere
 *   <index dir>/veracite-models.json   {"profile": "<name>"}: the default engine for that index (wins)
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-file.js';
import type { ProfileRole } from './catalog.js';
import { HubChecksumError, HubError, MANIFEST_FILE, readManifest, sha256File, verifyFolder, type DownloadManifest, type ManifestFile } from './download.js';
import { PROFILE_FILE, ProfileError, loadProfile, repoFolder, type LoadedProfile, type ProfileFile } from './profile.js';
import { ENGINE_PROFILE, bundledProfileDir, loadBundledProfile } from './bundled.js';

export const ACTIVE_FILE = 'active.json';
export const INDEX_PROFILE_FILE = 'veracite-models.json';
/** Profile names that mean the lite engine: the Universal Sentence Encoder heads trained here ("offline" and "none" as before). */
export const OFFLINE_PROFILE = ['lite', 'offline', 'none'];

export function modelsHome(explicit?: string): string {
  return resolve(explicit ?? process.env.VERACITE_MODELS_DIR ?? join(homedir(), '.veracite', 'models'));
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function checkProfileName(name: string): string {
  if (!NAME.test(name) || OFFLINE_PROFILE.includes(name) || name === ENGINE_PROFILE) throw new ProfileError(`"${name}" is not a usable profile name (letters, digits, . _ -; not ${[...OFFLINE_PROFILE, ENGINE_PROFILE].join(' or ')})`);
  return name;
}

export function profileDir(name: string, home = modelsHome()): string {
  return join(home, checkProfileName(name));
}

export type InstalledState = 'calibrated' | 'installed' | 'partial';

export interface InstalledProfile {
  name: string;
  dir: string;
  state: InstalledState;
  repo?: string;
  revision?: string;
  role?: ProfileRole;
  bytes?: number;
  profile?: ProfileFile;
  manifest?: DownloadManifest;
}

/** Every profile folder under the home, with its state (a pull without a manifest is partial). */
export async function listInstalled(home = modelsHome()): Promise<InstalledProfile[]> {
  if (!existsSync(home)) return [];
  const out: InstalledProfile[] = [];
  for (const entry of (await readdir(home, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || !NAME.test(entry.name) || entry.name.includes('.importing')) continue;
    const dir = join(home, entry.name);
    const info = await readJson<{ repo?: string; role?: ProfileRole }>(join(dir, 'veracite-pull.json'));
    const profile = await readJson<ProfileFile>(join(dir, PROFILE_FILE));
    const repo = profile?.repo ?? info?.repo;
    const manifest = repo ? await readManifest(join(dir, repoFolder(repo))).catch(() => undefined) : undefined;
    const state: InstalledState = !manifest ? 'partial' : profile ? 'calibrated' : 'installed';
    const role = profile?.role ?? info?.role;
    out.push({
      name: entry.name,
      dir,
      state,
      ...(repo ? { repo } : {}),
      ...(manifest ? { revision: manifest.revision, manifest, bytes: manifest.files.reduce((s, f) => s + f.size, 0) } : {}),
      ...(role ? { role } : {}),
      ...(profile ? { profile } : {}),
    });
  }
  return out;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** What a pull is for: the model's role and how it is loaded (`mix`: read mixed with another NLI model, as the profile it becomes; `scoring`: its evidence size). */
export interface PullInfo {
  repo: string;
  revision: string;
  role: ProfileRole;
  dtype: 'fp32' | 'q8';
  options?: ProfileFile['options'];
  mix?: ProfileFile['mix'];
  /** The engine's own evidence size (ProfileFile.scoring), which the calibration fits the audit with. */
  scoring?: ProfileFile['scoring'];
}

/** Records what a pull is for (written before any byte, so a partial folder can be listed and resumed). */
export async function writePullInfo(dir: string, info: PullInfo): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, 'veracite-pull.json'), JSON.stringify(info, null, 2) + '\n');
}

export async function readPullInfo(dir: string): Promise<PullInfo | undefined> {
  return readJson(join(dir, 'veracite-pull.json'));
}

export async function removeProfile(name: string, home = modelsHome()): Promise<boolean> {
  const dir = profileDir(name, home);
  if (!existsSync(dir)) return false;
  await rm(dir, { recursive: true, force: true });
  const active = await readJson<{ profile?: string }>(join(home, ACTIVE_FILE));
  if (active?.profile === name) await rm(join(home, ACTIVE_FILE), { force: true });
  return true;
}

/**
 * Makes a profile the default engine, globally or for one index. null: back to the package's default (the
 * shipped engine, models/hub/bundled.ts; the lite heads where none ships); 'lite' (or 'offline'): the lite
 * heads, recorded so that they stay the default.
 */
export async function setActiveProfile(name: string | null, opts: { home?: string; indexDir?: string } = {}): Promise<string> {
  const home = modelsHome(opts.home);
  const file = opts.indexDir ? join(opts.indexDir, INDEX_PROFILE_FILE) : join(home, ACTIVE_FILE);
  if (name === null) {
    await rm(file, { force: true });
    return file;
  }
  // Only a calibrated profile can become the default (loadProfile says what is missing).
  if (name === ENGINE_PROFILE) await loadBundledProfile().then((p) => p ?? Promise.reject(new ProfileError(`this package ships no calibrated engine (${bundledProfileDir()})`)));
  else if (!OFFLINE_PROFILE.includes(name)) await loadProfile(profileDir(name, home), name);
  await mkdir(opts.indexDir ?? home, { recursive: true });
  await writeFileAtomic(file, JSON.stringify({ profile: name }, null, 2) + '\n');
  return file;
}

/** The active profile's name: the index's, else the global one; undefined = the package's default (bundled.ts). */
export async function activeProfileName(opts: { home?: string; indexDir?: string } = {}): Promise<{ name: string; from: string } | undefined> {
  const files = [...(opts.indexDir ? [join(opts.indexDir, INDEX_PROFILE_FILE)] : []), join(modelsHome(opts.home), ACTIVE_FILE)];
  for (const f of files) {
    const v = await readJson<{ profile?: string }>(f);
    if (v?.profile) return { name: v.profile, from: f };
  }
  return undefined;
}

/** Loads a calibrated profile by name from the home (the shipped engine's name: the package's own). */
export async function loadInstalledProfile(name: string, home = modelsHome()): Promise<LoadedProfile> {
  if (name === ENGINE_PROFILE) {
    const p = await loadBundledProfile();
    if (!p) throw new ProfileError(`this package ships no calibrated engine (${bundledProfileDir()} has no profile): use --profile lite`);
    return p;
  }
  return loadProfile(profileDir(name, home), name);
}

/**
 * `veracite models import <folder>`: the air-gapped route. Accepts a profile folder copied from another
 * machine (veracite-profile.json and/or veracite-pull.json beside the model folder) or a model folder
 * holding a download manifest; every file is re-hashed against its manifest and a mismatch refuses the
 * import. A bare exported folder (no manifest) is accepted with `role`, and its checksums are recorded
 * as first seen. The copy is built under a temporary name and renamed into place last.
 */
export async function importFolder(src: string, opts: { name?: string; role?: ProfileRole; dtype?: 'fp32' | 'q8'; home?: string } = {}): Promise<InstalledProfile> {
  const home = modelsHome(opts.home);
  const from = resolve(src);
  if (!existsSync(from)) throw new HubError(`${from}: no such folder`);
  const pull = await readPullInfo(from);
  const profile = await readJson<ProfileFile>(join(from, PROFILE_FILE));
  const ownManifest = await readManifest(from).catch(() => undefined);
  const name = checkProfileName(opts.name ?? profile?.name ?? basename(from));
  const tmp = join(home, `${name}.importing-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(home, { recursive: true });
  try {
    if (pull || profile) {
      const repo = (profile?.repo ?? pull?.repo)!;
      const modelDir = join(from, repoFolder(repo));
      const manifest = await readManifest(modelDir).catch(() => undefined);
      if (!manifest) throw new HubError(`${modelDir}: no ${MANIFEST_FILE}: the pull there did not finish; finish it (veracite models pull) before copying`);
      await checkAgainst(modelDir, manifest);
      await cp(from, tmp, { recursive: true, filter: (s) => !s.endsWith('.part') });
    } else if (ownManifest) {
      await checkAgainst(from, ownManifest);
      if (!opts.role) throw new HubError(`${from}: a model folder without a profile: say its role with --role nli|scorer|embedder`);
      await cp(from, join(tmp, repoFolder(ownManifest.repo)), { recursive: true, filter: (s) => !s.endsWith('.part') });
      await writePullInfo(tmp, { repo: ownManifest.repo, revision: ownManifest.revision, role: opts.role, dtype: opts.dtype ?? 'fp32' });
    } else {
      if (!opts.role) throw new HubError(`${from}: an exported model folder: say its role with --role nli|scorer|embedder (and --dtype q8 if it holds onnx/model_quantized.onnx only)`);
      const repo = `local/${basename(from)}`;
      const dest = join(tmp, repoFolder(repo));
      await cp(from, dest, { recursive: true, filter: (s) => !s.endsWith('.part') });
      const files: ManifestFile[] = [];
      for (const rel of await filesUnder(dest)) files.push({ path: rel, size: (await stat(join(dest, rel))).size, sha256: await sha256File(join(dest, rel)), verifiedBy: 'first-seen' });
      const manifest: DownloadManifest = { format: 'veracite-model-download', version: 1, repo, revision: 'local', endpoint: `file://${from}`, files, completedAt: new Date().toISOString() };
      await writePullInfo(tmp, { repo, revision: 'local', role: opts.role, dtype: opts.dtype ?? 'fp32' });
      await writeFileAtomic(join(dest, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    }
    const dir = join(home, name);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  return (await listInstalled(home)).find((p) => p.name === name)!;
}

async function checkAgainst(dir: string, manifest: DownloadManifest): Promise<void> {
  const problems = await verifyFolder(dir, manifest);
  if (problems.length) {
    const first = manifest.files.find((f) => problems[0]!.startsWith(`${f.path}:`));
    if (first && !problems[0]!.endsWith('missing')) throw new HubChecksumError(first.path, first.sha256, problems[0]!.split(' ')[2] ?? '?', `recorded in ${join(dir, MANIFEST_FILE)}; nothing was imported`);
    throw new HubError(`${dir}: ${problems.join('; ')}; nothing was imported`);
  }
}

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (e.isFile() && e.name !== MANIFEST_FILE) out.push(rel);
  }
  return out.sort();
}
