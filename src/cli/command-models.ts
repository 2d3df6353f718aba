/**
 * `veracite models`: stronger models on a connected machine, calibrated before they judge anything.
 *
 *   veracite models list [--json]              recommended profiles and installed ones
 *   veracite models pull <profile|hub-id>      download (resumable, SHA-256 verified), then calibrate
 *   veracite models calibrate <profile>        sanity gates, then fit verdict rule, gate, probabilities, audit thresholds on
 *                                              data/samples/calibration (an estimate first, progress, resumable, --quick)
 *   veracite models info <profile>             manifest, checksums, calibration figures
 *   veracite models use <profile|offline>      the default engine, globally or for one index (--index)
 *   veracite models remove <profile>
 *   veracite models import <folder>            the air-gapped route: a folder pulled elsewhere, or an export
 *   veracite models add <name> --engine openai|ollama --base-url <url> --model <id>   an LLM judge (models/llm)
 *
 * The hub endpoint is --endpoint, VERACITE_HUB_ENDPOINT or HF_ENDPOINT (an enterprise mirror with the hub's
 * URL layout works the same); --offline or HF_HUB_OFFLINE=1 never touches the network. Models live in
 * --models-dir, VERACITE_MODELS_DIR or ~/.veracite/models.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { MissingInputError } from '../util/exit-codes.js';
import { CATALOG, catalogProfile, type CatalogFile, type CatalogProfile, type ProfileRole } from '../models/hub/catalog.js';
import { HubError, checkedAs, downloadRepo, hubEndpoint, isOffline, verifyFolder, type DownloadProgress, type ManifestFile } from '../models/hub/download.js';
import { importFolder, listInstalled, modelsHome, profileDir, readPullInfo, removeProfile, setActiveProfile, activeProfileName, writePullInfo, OFFLINE_PROFILE, type InstalledProfile } from '../models/hub/home.js';
import { ENGINE_PROFILE, hasBundledProfile, loadBundledProfile } from '../models/hub/bundled.js';
import { repoFolder, type ProfileFigures } from '../models/hub/profile.js';
import { LLM_ENGINES, type LlmEngine } from '../models/llm/config.js';
import { onnxFileFor } from '../models/onnx/resolve.js';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { commandLine, withJsonOutput } from './command-line.js';

const ROLES: ProfileRole[] = ['nli', 'scorer', 'embedder'];

function roleOption(v: string): ProfileRole {
  if (!ROLES.includes(v as ProfileRole)) throw new InvalidArgumentError(`--role must be one of ${ROLES.join(', ')}`);
  return v as ProfileRole;
}

export interface PullOptions {
  home?: string;
  endpoint?: string;
  offline?: boolean;
  token?: string;
  catalog?: readonly CatalogProfile[];
  /** For a hub id: its role, file type, revision and the profile name (default owner--name). */
  role?: ProfileRole;
  dtype?: 'fp32' | 'q8';
  revision?: string;
  name?: string;
  onProgress?: (p: DownloadProgress) => void;
}

/** What a hub id downloads: the files the ONNX loader reads, from the hub's listing of that revision. */
async function hubFiles(endpoint: string, repo: string, revision: string, dtype: 'fp32' | 'q8', token?: string): Promise<{ files: CatalogFile[]; revision: string }> {
  // ?blobs=true: without it the hub lists names only, no sizes and no LFS SHA-256.
  const url = `${endpoint}/api/models/${repo}/revision/${encodeURIComponent(revision)}?blobs=true`;
  const res = await fetch(url, { headers: { 'user-agent': 'veracite-models/1', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  if (!res.ok) throw new HubError(`${url}: HTTP ${res.status}${res.status === 404 ? ' (no such repository or revision)' : ''}`);
  const body = (await res.json()) as { sha?: string; siblings?: { rfilename: string; lfs?: { sha256?: string; size?: number } }[] };
  const names = new Map((body.siblings ?? []).map((s) => [s.rfilename, s]));
  const onnx = onnxFileFor(dtype);
  const want = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'added_tokens.json', onnx, `${onnx}_data`];
  const files: CatalogFile[] = [];
  for (const w of want) {
    const s = names.get(w);
    // The hub publishes a SHA-256 for LFS files only; the others are recorded at first download.
    if (s) files.push({ path: w, sha256: s.lfs?.sha256 ?? null, ...(s.lfs?.sha256 ? { published: 'hub' as const } : {}), ...(s.lfs?.size !== undefined ? { size: s.lfs.size } : {}) });
  }
  for (const required of ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnx]) {
    if (!names.has(required)) throw new HubError(`${repo}@${revision} has no ${required}: not a ready ONNX repository for dtype ${dtype} (export it, see docs/MODELS.md, and use veracite models import)`);
  }
  // Pin the commit the listing is of, so that every file comes from one revision.
  return { files, revision: body.sha ?? revision };
}

/** Downloads a recommended profile or a hub id into the models home (no calibration). */
export async function pullProfile(target: string, o: PullOptions = {}): Promise<{ name: string; dir: string; repo: string; revision: string; files: number; checked: Record<ManifestFile['verifiedBy'], number> }> {
  const home = modelsHome(o.home);
  const endpoint = hubEndpoint(o.endpoint);
  const known = catalogProfile(target, o.catalog ?? CATALOG);
  if (isOffline(o.offline)) throw new HubError(`offline (HF_HUB_OFFLINE / --offline): not pulling ${target}; pull it on a machine with internet and copy its folder (${join(home, known?.name ?? repoFolder(target))}) here with "veracite models import <folder>"`);
  let name: string;
  let repo: string;
  let revision: string;
  let files: CatalogFile[];
  let role: ProfileRole;
  let dtype: 'fp32' | 'q8';
  let options: CatalogProfile['options'];
  if (known) {
    if (known.manual || !known.files.length) throw new HubError(`profile "${known.name}" (${known.repo}) has no pinned ONNX files on the hub: ${known.manual ?? 'export it and use veracite models import'}`);
    ({ name, repo, revision, files, role, dtype, options } = { ...known, files: [...known.files] });
    // A profile pinned by file checksums at a branch: pull the commit the branch is at now, and record it.
    if (!/^[0-9a-f]{40}$/.test(revision)) revision = (await hubFiles(endpoint, repo, revision, dtype, o.token)).revision;
  } else {
    if (!/^[\w.-]+\/[\w.-]+$/.test(target)) throw new HubError(`"${target}" is neither a recommended profile (${(o.catalog ?? CATALOG).map((p) => p.name).join(', ')}) nor a hub id (owner/name)`);
    if (!o.role) throw new HubError(`${target}: say which role the model fills with --role ${ROLES.join('|')}`);
    repo = target;
    role = o.role;
    dtype = o.dtype ?? 'fp32';
    name = o.name ?? repoFolder(target);
    ({ files, revision } = await hubFiles(endpoint, repo, o.revision ?? 'main', dtype, o.token));
  }
  const dir = profileDir(name, home);
  const previous = await readPullInfo(dir);
  if (previous && (previous.repo !== repo || previous.revision !== revision)) {
    throw new HubError(`${dir} holds ${previous.repo}@${previous.revision}: veracite models remove ${name} first, or pull under another --name`);
  }
  await writePullInfo(dir, { repo, revision, role, dtype, ...(options ? { options } : {}) });
  const manifest = await downloadRepo({ endpoint, repo, revision, files, dest: join(dir, repoFolder(repo)), ...(o.offline !== undefined ? { offline: o.offline } : {}), ...(o.token ? { token: o.token } : {}), ...(o.onProgress ? { onProgress: o.onProgress } : {}) });
  const checked = { pinned: 0, hub: 0, etag: 0, 'first-seen': 0 };
  for (const f of manifest.files) checked[f.verifiedBy]++;
  return { name, dir, repo, revision, files: manifest.files.length, checked };
}

function progressPrinter(quiet?: boolean): (p: DownloadProgress) => void {
  let last = 0;
  return (p) => {
    if (quiet) return;
    const now = Date.now();
    if (!p.done && !p.resumedFrom && now - last < 1000) return;
    last = now;
    const pct = p.total ? ` ${((100 * p.bytes) / p.total).toFixed(0)}%` : '';
    const mb = (n: number) => (n / 1e6).toFixed(1);
    console.error(`  ${p.file}: ${mb(p.bytes)}${p.total ? `/${mb(p.total)}` : ''} MB${pct}${p.resumedFrom ? ` (resumed at ${mb(p.resumedFrom)} MB)` : ''}${p.done ? ` ${p.verifiedBy ? checkedAs(p.verifiedBy) : 'done'}` : ''}`);
  };
}

/** "2 files verified (pinned SHA-256), 4 files recorded (first seen)": never "verified" for what was not checked. */
function describeChecked(c: Record<ManifestFile['verifiedBy'], number>): string {
  const n = (k: number) => `${k} file${k === 1 ? '' : 's'}`;
  const parts = [
    ...(c.pinned ? [`${n(c.pinned)} verified (pinned SHA-256)`] : []),
    ...(c.hub + c.etag ? [`${n(c.hub + c.etag)} verified (the hub's SHA-256)`] : []),
    ...(c['first-seen'] ? [`${n(c['first-seen'])} recorded (first seen)`] : []),
  ];
  return parts.join(', ');
}

function describeInstalled(p: InstalledProfile): string {
  const state = p.state === 'calibrated' ? 'calibrated' : p.state === 'installed' ? 'installed, NOT calibrated (veracite models calibrate ' + p.name + ')' : 'partial download (pull again to resume)';
  return `${p.name.padEnd(14)} ${(p.role ?? '?').padEnd(9)} ${p.repo ?? '?'}@${(p.revision ?? '?').slice(0, 12)}  ${p.bytes ? `${(p.bytes / 1e6).toFixed(0)} MB  ` : ''}${state}`;
}

/** One profile figure, with its note and how much of its sample the model was trained on. */
function figureLine(name: string, v: ProfileFigures[string]): string {
  return `  ${name}: ${v.value.toFixed(3)} (n=${v.n})${v.note ? ` ${v.note}` : ''}${v.trainedOn ? `; the model was trained on ${v.trainedOn}` : ''}`;
}

/** `veracite models info verifier`: the shipped engine's model, calibration files (checked), thresholds and figures. */
async function describeShipped() {
  const p = (await loadBundledProfile())!;
  const f = p.file;
  const weightsFile = onnxFileFor(f.dtype);
  const sha = createHash('sha256').update(await readFile(join(p.modelDir, weightsFile))).digest('hex');
  const weightsMatch = `sha256:${sha.slice(0, 16)}` === f.modelInfo.version;
  console.log(`${p.name.padEnd(14)} ${f.role.padEnd(9)} the shipped engine (${relative(process.cwd(), p.modelDir) || '.'}, ${f.revision}), ${f.default ? 'the default engine' : 'opt-in: --profile verifier (or veracite models use verifier)'}`);
  console.log(`  model: ${f.modelInfo.id} ${weightsFile} sha256 ${sha} (${weightsMatch ? 'the weights it was calibrated with' : `CHANGED: calibrated with ${f.modelInfo.version}`}); card: ${join(relative(process.cwd(), p.modelDir) || '.', 'MODEL_CARD.md')}`);
  if (f.mix) console.log(`  read mixed with ${f.mix.nli}, weight ${f.mix.weight}${f.mix.chosenBy ? ` (${f.mix.chosenBy})` : ''}`);
  for (const [kind, c] of Object.entries(f.calibration)) if (c) console.log(`  ${kind}: ${c.file} sha256 ${c.sha256} (checked)`);
  if (!f.calibration.review) console.log('  no needs-review model: nothing is marked for review (veracite tune-verdict --domains --profile verifier fits one)');
  console.log(`  bands: ${f.bands ? `supported from ${f.bands.supportedFrom}, partly from ${f.bands.partlyFrom}, not supported below ${f.bands.notSupportedBelow}, tags below ${f.bands.tagBelow}` : 'the package defaults (fitted ones cost more out of fold: docs/RESULTS.md)'}`);
  console.log(`  calibrated by: ${f.calibratedOn.command}`);
  for (const [k, v] of Object.entries(f.figures)) console.log(figureLine(k, v));
  return { name: p.name, shipped: true, dir: p.dir, modelDir: p.modelDir, weights: { file: weightsFile, sha256: sha, matchesCalibration: weightsMatch }, profile: f };
}

export function registerModelsCommand(program: Command): void {
  const models = program.command('models').description('stronger models for a connected machine: list, pull (verified, resumable), calibrate, use, import');
  const homeOpt = (c: Command) => c.option('--models-dir <dir>', 'where profiles live (default $VERACITE_MODELS_DIR or ~/.veracite/models)');

  homeOpt(models.command('list').description('recommended profiles (role, size, licence, what they improve, published figures) and installed ones').option('--json', 'machine-readable'))
    .action((flags: { modelsDir?: string; json?: boolean }) => withJsonOutput(flags.json, async () => {
      const installed = await listInstalled(modelsHome(flags.modelsDir));
      const active = await activeProfileName({ home: modelsHome(flags.modelsDir) });
      const recommended = CATALOG.map((p) => ({ ...p, installed: installed.find((i) => i.name === p.name)?.state ?? 'no' }));
      console.log('recommended profiles (veracite models pull <name>):');
      for (const p of recommended) {
        console.log(`  ${p.name.padEnd(10)} ${p.role.padEnd(9)} ${p.repo}@${p.revision.slice(0, 12)}  ${p.sizeMB} MB  ${p.licence}  [${p.installed}]`);
        console.log(`             improves: ${p.improves}`);
        console.log(`             published: ${p.published.map((f) => `${f.metric} ${f.value}`).join('; ')} (${p.published[0]?.source ?? ''})`);
        const unpinned = p.files.filter((f) => !f.sha256).map((f) => f.path);
        if (p.manual) console.log(`             not on the hub as ONNX with checksums: ${p.manual}`);
        else if (unpinned.length) console.log(`             no published SHA-256 for ${unpinned.join(', ')}: checked against the hub's ETag, else recorded at first download`);
      }
      const shipped = (await loadBundledProfile().catch(() => undefined))?.file.default ? ENGINE_PROFILE : 'lite';
      console.log(installed.length ? 'installed:' : 'installed: none');
      for (const p of installed) console.log(`  ${describeInstalled(p)}`);
      console.log(`active: ${active ? `${active.name} (${active.from})` : `${shipped} (the package's default engine${shipped === 'lite' ? (hasBundledProfile() ? `; the shipped cross-encoder: --profile ${ENGINE_PROFILE}` : ': this package ships no calibrated cross-encoder') : ''})`}`);
      return { recommended, installed: installed.map(({ profile, manifest, ...rest }) => ({ ...rest, ...(profile ? { figures: profile.figures } : {}) })), active: active?.name ?? null, default: shipped };
    }));

  homeOpt(
    models
      .command('pull <target>')
      .description('download a recommended profile or a hub id (owner/name), verify every file, then calibrate it on data/samples/calibration')
      .option('--endpoint <url>', 'hub endpoint or mirror (default $VERACITE_HUB_ENDPOINT, $HF_ENDPOINT or https://huggingface.co)')
      .option('--offline', 'never touch the network (as HF_HUB_OFFLINE=1)')
      .option('--role <role>', `hub ids: the role the model fills (${ROLES.join('|')})`, roleOption)
      .option('--dtype <t>', 'hub ids: fp32 (onnx/model.onnx) or q8 (onnx/model_quantized.onnx)', 'fp32')
      .option('--revision <rev>', 'hub ids: branch, tag or commit (pinned to the commit it resolves to)')
      .option('--name <name>', 'hub ids: profile name (default owner--name)')
      .option('--no-calibrate', 'download only (calibrate later: veracite models calibrate <name>)')
      .option('--samples <dir>', 'labelled samples to calibrate on (default: the shipped data/samples/calibration)')
      .option('--quick', QUICK_HELP)
      .option('--quiet', 'no progress output'),
  ).action(async (target: string, flags: { modelsDir?: string; endpoint?: string; offline?: boolean; role?: ProfileRole; dtype: string; revision?: string; name?: string; calibrate: boolean; samples?: string; quick?: boolean; quiet?: boolean }, cmd: Command) => {
    if (flags.dtype !== 'fp32' && flags.dtype !== 'q8') throw new InvalidArgumentError('--dtype must be fp32 or q8');
    const token = process.env.HF_TOKEN;
    if (!flags.quiet) console.error(`pulling ${target} from ${hubEndpoint(flags.endpoint)}`);
    const r = await pullProfile(target, {
      ...(flags.modelsDir ? { home: flags.modelsDir } : {}),
      ...(flags.endpoint ? { endpoint: flags.endpoint } : {}),
      ...(flags.offline ? { offline: true } : {}),
      ...(token ? { token } : {}),
      ...(flags.role ? { role: flags.role } : {}),
      dtype: flags.dtype,
      ...(flags.revision ? { revision: flags.revision } : {}),
      ...(flags.name ? { name: flags.name } : {}),
      onProgress: progressPrinter(flags.quiet),
    });
    console.log(`${r.name}: ${r.repo}@${r.revision}, ${describeChecked(r.checked)} in ${r.dir}`);
    if (r.checked['first-seen']) console.log(`  recorded (first seen): no published SHA-256 to check them against; their hashes are in the manifest, and a later change is refused (veracite models info ${r.name})`);
    if (!flags.calibrate) {
      console.log(`not calibrated: run veracite models calibrate ${r.name} before using it`);
      return;
    }
    await runCalibrate(r.name, flags.modelsDir, commandLine(cmd), flags.quiet, flags.samples, flags.quick);
  });

  homeOpt(
    models
      .command('calibrate <profile>')
      .description('fit the verdict rule, gate and probabilities, the audit\'s support signal and flag threshold on the samples in data/samples/calibration; save the profile beside the weights')
      .option('--samples <dir>', 'labelled samples folder (default: the shipped data/samples/calibration; same layout)')
      .option('--quick', QUICK_HELP)
      .option('--quiet', 'no progress output'),
  ).action(async (name: string, flags: { modelsDir?: string; samples?: string; quick?: boolean; quiet?: boolean }, cmd: Command) => {
    await runCalibrate(name, flags.modelsDir, commandLine(cmd), flags.quiet, flags.samples, flags.quick);
  });

  homeOpt(models.command('info <profile>').description('a profile\'s files and checksums (re-verified), revision, calibration and figures').option('--json', 'machine-readable'))
    .action((name: string, flags: { modelsDir?: string; json?: boolean }) => withJsonOutput(flags.json, async () => {
      const p = (await listInstalled(modelsHome(flags.modelsDir))).find((i) => i.name === name);
      // The shipped engine is not installed by `veracite models`: it comes with the package (models/engine).
      if (!p && name === ENGINE_PROFILE && hasBundledProfile()) return describeShipped();
      if (!p) throw new MissingInputError(`profile "${name}" is not installed (veracite models list)`);
      console.log(describeInstalled(p));
      const problems = p.manifest ? await verifyFolder(join(p.dir, repoFolder(p.repo!)), p.manifest) : ['no download manifest'];
      for (const f of p.manifest?.files ?? []) console.log(`  ${f.path}  ${f.size} bytes  sha256 ${f.sha256}  (${f.verifiedBy}: ${checkedAs(f.verifiedBy)})`);
      console.log(problems.length ? `PROBLEMS: ${problems.join('; ')}` : 'all files match their checksums');
      for (const [k, v] of Object.entries(p.profile?.figures ?? {})) console.log(figureLine(k, v));
      return { ...p, problems };
    }));

  homeOpt(models.command('use <profile>').description(`the default engine for every command ('${ENGINE_PROFILE}': the shipped cross-encoder; 'lite': the fast USE heads), or for one index with --index`).option('--index <dir>', 'only for this index'))
    .action(async (name: string, flags: { modelsDir?: string; index?: string }) => {
      const lite = OFFLINE_PROFILE.includes(name);
      const file = await setActiveProfile(lite ? 'lite' : name, { ...(flags.modelsDir ? { home: flags.modelsDir } : {}), ...(flags.index ? { indexDir: flags.index } : {}) });
      console.log(lite ? `the lite engine (Universal Sentence Encoder heads) is the default engine (${file}); "veracite models use ${ENGINE_PROFILE}" goes back to the shipped one` : `${name} is the default engine (${file})`);
    });

  homeOpt(models.command('remove <profile>').description('delete a profile and its weights')).action(async (name: string, flags: { modelsDir?: string }) => {
    console.log((await removeProfile(name, modelsHome(flags.modelsDir))) ? `removed ${name}` : `${name} is not installed`);
  });

  homeOpt(
    models
      .command('add <name>')
      .description('an LLM judge as a profile: any OpenAI-compatible chat-completions server (--engine openai) or Ollama (--engine ollama); then veracite models calibrate <name>')
      .requiredOption('--engine <engine>', `${LLM_ENGINES.join('|')}`, (v: string) => {
        if (!(LLM_ENGINES as readonly string[]).includes(v)) throw new InvalidArgumentError(`--engine must be one of ${LLM_ENGINES.join(', ')}`);
        return v;
      })
      .requiredOption('--base-url <url>', 'openai: the URL before /chat/completions (e.g. http://127.0.0.1:8000/v1); ollama: e.g. http://127.0.0.1:11434')
      .requiredOption('--model <id>', 'the model name the server knows')
      .option('--api-key-env <VAR>', 'environment variable holding the API key (read at each run; the key is never written anywhere)')
      .option('--judge <which>', 'all (every evidence pair) | uncertain (only pairs the offline head leaves uncertain)', 'all')
      .option('--uncertain-below <p>', "--judge uncertain: the offline head's top probability below which a pair goes to the LLM", (v: string) => Number(v))
      .option('--concurrency <n>', 'requests in flight at once', (v: string) => Number(v))
      .option('--timeout <ms>', 'per-request timeout', (v: string) => Number(v))
      .option('--retries <n>', 'retries on 429, 5xx, timeouts (Retry-After honoured)', (v: string) => Number(v))
      .option('--seed <n>', 'sampling seed where the server takes one (temperature is 0)', (v: string) => Number(v))
      .option('--price-input <x>', 'price per million input tokens (for the cost line)', (v: string) => Number(v))
      .option('--price-output <x>', 'price per million output tokens', (v: string) => Number(v))
      .option('--currency <c>', 'currency of the prices', 'USD'),
  ).action(async (name: string, flags: { modelsDir?: string; engine: LlmEngine; baseUrl: string; model: string; apiKeyEnv?: string; judge: string; uncertainBelow?: number; concurrency?: number; timeout?: number; retries?: number; seed?: number; priceInput?: number; priceOutput?: number; currency: string }) => {
    if ((flags.priceInput === undefined) !== (flags.priceOutput === undefined)) throw new Error('models add: give both --price-input and --price-output (per million tokens), or neither');
    const { addLlmProfile } = await import('../models/llm/add.js');
    const r = await addLlmProfile({
      name,
      ...(flags.modelsDir ? { home: flags.modelsDir } : {}),
      config: {
        engine: flags.engine,
        baseUrl: flags.baseUrl,
        model: flags.model,
        ...(flags.apiKeyEnv ? { apiKeyEnv: flags.apiKeyEnv } : {}),
        judge: flags.judge as 'all' | 'uncertain',
        ...(flags.uncertainBelow !== undefined ? { uncertainBelow: flags.uncertainBelow } : {}),
        ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
        ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
        ...(flags.retries !== undefined ? { retries: flags.retries } : {}),
        ...(flags.seed !== undefined ? { params: { seed: flags.seed } } : {}),
        ...(flags.priceInput !== undefined ? { prices: { input: flags.priceInput, output: flags.priceOutput!, currency: flags.currency } } : {}),
      },
    });
    console.log(`${r.name}: LLM judge ${r.config.engine} ${r.config.model} at ${r.config.baseUrl}${r.digest ? ` (digest ${r.digest})` : ''}${r.config.apiKeyEnv ? `, key from $${r.config.apiKeyEnv}` : ''}, judge ${r.config.judge}, in ${r.dir}`);
    if (r.recalibrate) console.log('  the server, model or parameters changed: the earlier calibration was removed');
    console.log(`not calibrated yet: run veracite models calibrate ${name} (one request per evidence pair of the shipped samples; answers are cached)`);
  });

  homeOpt(
    models
      .command('import <folder>')
      .description('install a profile folder copied from a machine that pulled it (checksums re-verified), or an exported model folder (--role)')
      .option('--name <name>', 'profile name (default: the folder\'s)')
      .option('--role <role>', `for an exported folder: ${ROLES.join('|')}`, roleOption)
      .option('--dtype <t>', 'for an exported folder: fp32 or q8', 'fp32')
      .option('--no-calibrate', 'do not calibrate an uncalibrated import')
      .option('--samples <dir>', 'labelled samples to calibrate on (default: the shipped data/samples/calibration)'),
  ).action(async (folder: string, flags: { modelsDir?: string; name?: string; role?: ProfileRole; dtype: string; calibrate: boolean; samples?: string }, cmd: Command) => {
    const p = await importFolder(folder, { ...(flags.name ? { name: flags.name } : {}), ...(flags.role ? { role: flags.role } : {}), dtype: flags.dtype === 'q8' ? 'q8' : 'fp32', ...(flags.modelsDir ? { home: flags.modelsDir } : {}) });
    console.log(`imported ${describeInstalled(p)}`);
    if (p.state === 'installed' && flags.calibrate) await runCalibrate(p.name, flags.modelsDir, commandLine(cmd), false, flags.samples);
  });
}

/** `--quick`'s sizes, as models-calibrate.ts QUICK_SIZES (not imported: it loads the pipeline). */
const QUICK_HELP = 'calibrate on the first 80 SciFact train and 40 dev claims, 40 WiCE citations and 300 NLI pairs: minutes on a 2-core CPU, figures on smaller samples (the profile records the sizes)';

async function runCalibrate(name: string, home: string | undefined, command: string, quiet?: boolean, samples?: string, quick?: boolean): Promise<void> {
  // Loaded here, not at the top: calibrating opens a pipeline and loads models, which list / info / use /
  // remove never need (src/cli/models-entry.ts starts `veracite models` without the rest of the CLI).
  const { calibrateProfile } = await import('./models-calibrate.js');
  const profile = await calibrateProfile({ name, ...(home ? { home } : {}), ...(samples ? { samples } : {}), ...(quick ? { quick } : {}), command, ...(quiet ? {} : { log: (l: string) => console.error(l) }) });
  console.log(`${name}: calibrated (${profile.modelInfo.id} ${profile.modelInfo.version})`);
  for (const [k, v] of Object.entries(profile.figures)) console.log(`  ${k}: ${v.value.toFixed(3)} (n=${v.n})`);
  if (profile.gates) console.log(`  sanity gates passed: ${profile.gates.checks.map((c) => `${c.name} ${c.value.toFixed(3)} (${c.name === 'fit' ? 'min' : '>='} ${c.threshold})`).join(', ')}`);
  if (profile.samples) console.log(`  samples read: ${profile.samples.train} + ${profile.samples.dev} SciFact claims, ${profile.samples.wice} WiCE citations, ${profile.samples.snli} NLI pairs${profile.samples.quick ? ' (--quick)' : ''}`);
  console.log(`use it: veracite models use ${name}   (or --profile ${name} on one command)`);
}

export { profileDir };
