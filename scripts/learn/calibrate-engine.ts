/**
 * Calibrates the shipped verification engine (models/verifier, the ONNX cross-encoder built by scripts/ and
 * described by its MODEL_CARD.md) exactly as `veracite models calibrate` calibrates a pulled profile
 * (cli/models-calibrate.ts: sanity gates on the SNLI sample, the verdict rule and probability calibrator on
 * the SciFact train sample, held-out figures on the SciFact dev sample, the audit's probability of support on
 * the WiCE dev sample; data/samples/calibration), then writes the profile the package ships in models/engine/
 * (models/hub/bundled.ts): veracite-profile.json (model "../verifier"), verdict-calibration.json and
 * audit-calibration.json. Never fitted on data/samples/audit, the citation sets or test/cases.
 *
 * The model's readings are kept in a work folder (default .veracite/engine-calibration, not committed): an
 * interrupted run resumes, and a re-run after a changed model reads everything again (readings are tied to
 * the weights hash).
 *
 *   node --import tsx scripts/learn/calibrate-engine.ts [--model models/verifier] [--dtype q8|fp32] [--quick]
 *     [--mix trained:0.5]   the engine is the cross-encoder read mixed with the lite heads, the cross-encoder's
 *                           weight 0.5 (models/mix/mixed-entailment.ts; the weight chosen on held-out domains)
 *     [--mix-chosen-by TEXT] how the weight was chosen, recorded in the profile
 *     [--evidence-k N]      the engine reads a cited page's N best sentences, joined (ProfileFile.scoring; the
 *                           package default 3); chosen on held-out domains by scripts/learn/premise-choice.ts
 *     [--evidence-k-chosen-by TEXT] what chose it, recorded in the profile
 *     [--samples DIR]       the labelled samples (default data/samples/calibration)
 *     [--notes-only]        only re-derive, in the profile in --out, what of each sample the model was trained on
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { calibrateProfile } from '../../src/cli/models-calibrate.js';
import { MANIFEST_FILE, type DownloadManifest, type ManifestFile } from '../../src/models/hub/download.js';
import { writePullInfo } from '../../src/models/hub/home.js';
import { AUDIT_CALIBRATION_FILE, PROFILE_FILE, REVIEW_FILE, VERDICT_CALIBRATION_FILE, type ProfileFile } from '../../src/models/hub/profile.js';
import { packageRoot } from '../../src/util/package-root.js';
import { trainingOverlap } from './training-overlap.js';
import { ENGINE_PROFILE, bundledProfileDir } from '../../src/models/hub/bundled.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/verifier' },
    dtype: { type: 'string' },
    work: { type: 'string', default: '.veracite/engine-calibration' },
    out: { type: 'string', default: bundledProfileDir() },
    quick: { type: 'boolean', default: false },
    mix: { type: 'string' },
    /** The labelled samples folder (default data/samples/calibration), in its layout (scripts/build-calibration-samples.mjs). */
    samples: { type: 'string' },
    /** Only re-derive the figures' notes of the profile in --out (trainedOn, data paths): no model is read. */
    'notes-only': { type: 'boolean', default: false },
    'mix-chosen-by': { type: 'string' },
    /** The engine's own evidence size (ProfileFile.scoring: best sentences read, joined), and what chose it. */
    'evidence-k': { type: 'string' },
    'evidence-k-chosen-by': { type: 'string' },
    /** train,dev,wice,snli: the first n of each sample (a dry run of the flow). */
    limit: { type: 'string' },
  },
});

const samplesDir = values.samples ? resolve(values.samples) : join(packageRoot(), 'data', 'samples', 'calibration');
/** A path of this machine as the shipped profile names it: relative to the package, with forward slashes. */
const packagePath = (p: string): string => (isAbsolute(p) ? relative(packageRoot(), p).split('\\').join('/') : p);
/** The shipped figures: data paths relative to the package (not the machine that calibrated), and what of each sample the model was trained on. */
async function shippedFigures(figures: ProfileFile['figures'], samples: NonNullable<ProfileFile['samples']>): Promise<ProfileFile['figures']> {
  const relativeData = Object.fromEntries(Object.entries(figures).map(([k, f]) => [k, { ...f, data: packagePath(f.data) }]));
  return trainingOverlap(relativeData, samplesDir, samples);
}
/**
 * The shipped profile's paths of this machine made relative to the package: the calibration files' data paths
 * and sources (each file re-hashed into `calibration`, which the loader checks) and `calibratedOn.data`. A
 * provenance or `models info` in a user's clone then names data/samples/..., not the calibrating machine's folders.
 */
async function packageRelative(out: string, file: ProfileFile): Promise<ProfileFile> {
  const root = packageRoot().split('\\').join('/') + '/';
  const calibration: ProfileFile['calibration'] = {};
  for (const [kind, c] of Object.entries(file.calibration) as [keyof ProfileFile['calibration'], { file: string; sha256: string }][]) {
    const text = (await readFile(join(out, c.file), 'utf8')).split(root).join('');
    await writeFileAtomic(join(out, c.file), text);
    calibration[kind] = { file: c.file, sha256: createHash('sha256').update(text).digest('hex') };
  }
  return { ...file, calibration, calibratedOn: { ...file.calibratedOn, data: file.calibratedOn.data.map(packagePath) } };
}
if (values['notes-only']) {
  const out = resolve(values.out!);
  const path = join(out, PROFILE_FILE);
  const file = JSON.parse(await readFile(path, 'utf8')) as ProfileFile;
  if (!file.samples) throw new Error(`${path}: no record of the samples read (an older profile): calibrate it again`);
  await writeFileAtomic(path, JSON.stringify(await packageRelative(out, { ...file, figures: await shippedFigures(file.figures, file.samples) }), null, 2) + '\n');
  console.error(`${path}: figures' notes and data paths re-derived`);
  process.exit(0);
}

const modelDir = resolve(values.model!);
const dtype = (values.dtype ?? (existsSync(join(modelDir, 'onnx', 'model_quantized.onnx')) ? 'q8' : 'fp32')) as 'q8' | 'fp32';
const home = resolve(values.work!);
// The work profile's name (the shipped name is reserved); its model folder is named so that the model's id is
// the one it has when loaded from models/verifier ("verifier"), which the calibration files record.
const name = 'engine-calibration';
const repo = 'verifier';
const dir = join(home, name);
const copy = join(dir, repo);

async function filesUnder(root: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(root, rel)));
    else if (e.isFile() && e.name !== MANIFEST_FILE) out.push(rel);
  }
  return out.sort();
}
/** --mix SPEC:WEIGHT: the other NLI model's spec and the cross-encoder's weight in (0, 1). */
function parseMix(text: string): { nli: string; weight: number; chosenBy?: string } {
  const at = text.lastIndexOf(':');
  const weight = Number(text.slice(at + 1));
  if (at <= 0 || !(weight > 0 && weight < 1)) throw new Error(`--mix ${text}: give SPEC:WEIGHT, e.g. trained:0.5 (the cross-encoder's weight, between 0 and 1)`);
  return { nli: text.slice(0, at), weight, ...(values['mix-chosen-by'] ? { chosenBy: values['mix-chosen-by'] } : {}) };
}
const sha256 = async (p: string) => createHash('sha256').update(await readFile(p)).digest('hex');

// The committed model, copied with a manifest of its files' hashes (the calibration checks them).
await rm(copy, { recursive: true, force: true });
await mkdir(dir, { recursive: true });
await cp(modelDir, copy, { recursive: true });
const files: ManifestFile[] = [];
for (const rel of await filesUnder(copy)) files.push({ path: rel, size: (await stat(join(copy, rel))).size, sha256: await sha256(join(copy, rel)), verifiedBy: 'first-seen' });
const manifest: DownloadManifest = { format: 'veracite-model-download', version: 1, repo, revision: 'committed', endpoint: `file://${modelDir}`, files, completedAt: new Date().toISOString() };
await writeFileAtomic(join(copy, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
// models/verifier reads [CLS] claim [SEP] evidence (its MODEL_CARD.md): the entailment model is told so.
const mix = values.mix ? parseMix(values.mix) : undefined;
const evidenceK = values['evidence-k'] === undefined ? undefined : Number(values['evidence-k']);
if (evidenceK !== undefined && !(Number.isInteger(evidenceK) && evidenceK >= 1 && evidenceK <= 10)) throw new Error(`--evidence-k ${values['evidence-k']}: a whole number from 1 to 10`);
const scoring = evidenceK === undefined ? undefined : { evidenceK, ...(values['evidence-k-chosen-by'] ? { chosenBy: values['evidence-k-chosen-by'] } : {}) };
await writePullInfo(dir, { repo, revision: 'committed', role: 'nli', dtype, options: { pairOrder: 'claim-first' }, ...(mix ? { mix } : {}), ...(scoring ? { scoring } : {}) });

const command = `node --import tsx scripts/learn/calibrate-engine.ts --model ${values.model} --dtype ${dtype}${values.quick ? ' --quick' : ''}${values.mix ? ` --mix ${values.mix}` : ''}${evidenceK !== undefined ? ` --evidence-k ${evidenceK}` : ''}`;
const started = performance.now();
const [train, dev, wice, snli] = (values.limit ?? '').split(',').map((x) => (x ? Number(x) : undefined));
const limit = values.limit ? { ...(train ? { train } : {}), ...(dev ? { dev } : {}), ...(wice ? { wice } : {}), ...(snli ? { snli } : {}) } : undefined;
const profile = await calibrateProfile({ name, home, command: command + (values.limit ? ` --limit ${values.limit}` : '') + (values.samples ? ` --samples ${values.samples}` : ''), samples: samplesDir, quick: values.quick!, ...(limit ? { limit } : {}), log: (l) => console.error(l) });
console.error(`calibrated in ${((performance.now() - started) / 1000).toFixed(0)} s`);

// The shipped profile: the same files, pointing at the committed model folder.
const out = resolve(values.out!);
await mkdir(out, { recursive: true });
for (const f of [VERDICT_CALIBRATION_FILE, AUDIT_CALIBRATION_FILE]) if (existsSync(join(dir, f))) await cp(join(dir, f), join(out, f));
const shipped: ProfileFile = { ...profile, name: ENGINE_PROFILE, repo: `veracite/${repo}`, revision: 'committed', model: relative(out, modelDir).split('\\').join('/'), ...(profile.samples ? { figures: await shippedFigures(profile.figures, profile.samples) } : {}) };
// A needs-review model fitted on the previous calibration's decisions does not hold for this one.
if (existsSync(join(out, REVIEW_FILE))) {
  await rm(join(out, REVIEW_FILE));
  console.error(`removed ${join(out, REVIEW_FILE)} (fitted on the previous calibration's decisions): fit it again with veracite tune-verdict --domains --profile verifier`);
}
await writeFileAtomic(join(out, PROFILE_FILE), JSON.stringify(await packageRelative(out, shipped), null, 2) + '\n');
console.error(`wrote ${relative(process.cwd(), out)}/{${PROFILE_FILE}, ${VERDICT_CALIBRATION_FILE}, ${AUDIT_CALIBRATION_FILE}} (model ${shipped.model}, weights ${profile.modelInfo.version})`);
for (const [k, v] of Object.entries(profile.figures)) console.log(`${k}: ${v.value.toFixed(3)} (n=${v.n})`);
