/**
 * `veracite models calibrate <profile>`: fits everything a swapped-in model is judged with, on the
 * labelled samples shipped in data/samples/calibration (sizes and licences: data/samples/SOURCES.md),
 * with the same fitting code as `veracite tune-verdict` and `veracite calibrate` (eval/audit-calibration.ts),
 * and writes the profile beside the weights (models/hub/profile.ts):
 *
 * - NLI or scorer profiles: the verdict rule, relevance gate and probability calibrator (fit-verdict.ts)
 *   on SciFact TRAIN sample claims with their cited abstracts plus one shuffled abstract each (gold NOT
 *   ENOUGH INFO), measured on the SciFact DEV sample claims it never saw; the audit's support signal,
 *   flag thresholds and probability of support on the WiCE dev sample (the support signal's out-of-fold
 *   figures by article); the NLI model's SNLI accuracy on the SNLI sample.
 * - Embedder profiles: dense retrieval over the SciFact sample corpus (Recall@10 of the dev claims'
 *   cited abstracts); nothing to fit (vectors are not thresholded).
 *
 * The figures a random (test) model reaches mean nothing; the flow is what the tests check.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { auditConfigOf } from '../app/audit.js';
import { Veracite } from '../app/veracite.js';
import type { InjectedModels } from '../app/models.js';
import { supportModel } from '../audit/support.js';
import { combineSupport, fitAuditCalibration } from '../eval/audit-calibration.js';
import { readWiceData } from '../eval/run-citation-detection.js';
import { supportDetection } from '../eval/support-detection.js';
import { collectVerdictItems, type GoldClaim } from '../learn/verdict/collect-pairs.js';
import { calibratorSpread, fitVerdictCalibration } from '../learn/verdict/fit-verdict.js';
import { CalibrationRefusedError, describeGates, fitGate, readNliSample, sanityGates, type GateReport, type NliReading } from '../learn/verdict/sanity-gates.js';
import { knownOf, type LabelledPairs } from '../learn/verdict/labelled-pairs.js';
import { HubError, readManifest, verifyFolder } from '../models/hub/download.js';
import { modelsHome, profileDir, readPullInfo } from '../models/hub/home.js';
import { AUDIT_CALIBRATION_FILE, PROFILE_FILE, READINGS_FILE, VERDICT_CALIBRATION_FILE, repoFolder, type ProfileFigures, type ProfileFile } from '../models/hub/profile.js';
import { loadEmbedder, loadEntailment, loadPairScorer } from '../models/registry.js';
import type { OnnxLoadOptions } from '../models/onnx/load.js';
import { ReadingCache } from '../models/reading-cache.js';
import { MixedEntailment } from '../models/mix/mixed-entailment.js';
import type { EntailmentModel, ModelInfo, PairScorer } from '../models/types.js';
import { formatEta, formatRate } from './progress.js';
import { packageRoot } from '../util/package-root.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { aggregateColumbia } from '../verify/aggregate.js';
import { aggregateConfigOf } from '../verify/verdict-calibration.js';
import { readJsonlFile } from '../util/jsonl-file.js';
import { MissingInputError } from '../util/exit-codes.js';

export interface CalibrateProfileOptions {
  name: string;
  home?: string;
  /**
   * The labelled samples folder (default data/samples/calibration of the package, written by
   * scripts/build-calibration-samples.mjs): scifact/{corpus,claims_train,claims_dev}.jsonl,
   * wice/claim_dev.jsonl, nli/snli_dev.jsonl.
   */
  samples?: string;
  /** First n items of each sample (tests, quick runs); over --quick's sizes. */
  limit?: { train?: number; dev?: number; wice?: number; snli?: number };
  /** The first QUICK_SIZES items of each sample: minutes on a 2-core CPU, figures on smaller samples. */
  quick?: boolean;
  device?: 'cpu' | 'cuda';
  command: string;
  log?: (line: string) => void;
}

// The specs a profile records beside its own model; the retrieval embedder among them is informative only (an index fixes it: app/index-embedder.ts).
const DEFAULT_SPECS = { embedder: 'minilm', scorer: 'trained', nli: 'trained' };


const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function calibrateProfile(o: CalibrateProfileOptions): Promise<ProfileFile> {
  const log = o.log ?? (() => {});
  const home = modelsHome(o.home);
  const dir = profileDir(o.name, home);
  const pull = await readPullInfo(dir);
  if (!pull) throw new MissingInputError(`model profile "${o.name}" is not installed in ${home}: veracite models pull ${o.name} (or models import <folder>)`);
  const modelDir = join(dir, repoFolder(pull.repo));
  const manifest = await readManifest(modelDir).catch(() => undefined);
  if (!manifest) throw new HubError(`${modelDir}: the download did not finish (no manifest); run veracite models pull ${o.name} again`);
  const problems = await verifyFolder(modelDir, manifest);
  if (problems.length) throw new HubError(`${modelDir}: ${problems.join('; ')}; pull it again`);

  const samples = o.samples ?? join(packageRoot(), 'data', 'samples', 'calibration');
  const onnx = { device: o.device ?? 'cpu', dtype: pull.dtype, ...(pull.options ?? {}) } as OnnxLoadOptions;
  const figures: ProfileFigures = {};
  const data: string[] = [];
  const calibration: ProfileFile['calibration'] = {};
  let modelInfo: ModelInfo;
  let samplesUsed: ProfileFile['samples'];
  let gateReport: GateReport | undefined;
  const sizes = { ...(o.quick ? QUICK_SIZES : {}), ...(o.limit ?? {}) };

  const corpus = join(samples, 'scifact', 'corpus.jsonl');
  const trainPath = join(samples, 'scifact', 'claims_train.jsonl');
  const devPath = join(samples, 'scifact', 'claims_dev.jsonl');
  for (const p of [corpus, trainPath, devPath]) if (!existsSync(p)) throw new MissingInputError(`${p}: labelled sample missing (data/samples/calibration: scripts/build-calibration-samples.mjs)`);
  const devClaims = (await readJsonlFile<GoldClaim & { id: number }>(devPath, sizes.dev)).filter((c) => c.cited_doc_ids.length);

  if (pull.role === 'embedder') {
    const embedder = await loadEmbedder(modelDir, onnx);
    modelInfo = embedder.info;
    const vc = await Veracite.open({ index: { dir: 'memory:' }, retrieval: { mode: 'dense' as const } }, { create: true, models: { embedder } });
    try {
      log(`embedding the SciFact sample corpus with ${embedder.info.id}`);
      await vc.ingest(corpus, { dense: true });
      let found = 0;
      for (const c of devClaims) {
        const r = await vc.search(c.claim, { k: 10, mode: 'dense' });
        const got = new Set(r.documents.map((d) => d.docId));
        found += c.cited_doc_ids.filter((d) => got.has(String(d))).length / c.cited_doc_ids.length;
      }
      figures['scifact-dev-sample dense Recall@10'] = { value: devClaims.length ? found / devClaims.length : 0, n: devClaims.length, data: devPath };
      data.push(corpus, devPath);
    } finally {
      await vc.close();
      await embedder.dispose?.();
    }
  } else {
    const own = pull.role === 'nli' ? await loadEntailment(modelDir, { onnx }) : await loadPairScorer(modelDir, { onnx });
    // A mixed profile is calibrated on the mixture's readings, as it is used (models/mix/mixed-entailment.ts).
    const raw = pull.role === 'nli' && pull.mix ? new MixedEntailment(own as EntailmentModel, await loadEntailment(pull.mix.nli), pull.mix.weight) : own;
    modelInfo = raw.info;
    // Every reading goes to disk as it is made: an interrupted calibration resumes where it stopped.
    const cache = await ReadingCache.open(join(dir, READINGS_FILE), raw.info);
    // A run the gates refuse leaves no readings to resume: the next run (a fixed server, another prompt) reads
    // afresh. They are moved aside, not deleted, for whoever wants to see what the model answered.
    const refused = async (e: CalibrationRefusedError) => {
      await rename(cache.path, `${cache.path}.refused`).catch(() => undefined);
      log(`the refused run's readings were moved to ${cache.path}.refused: the next run reads every pair afresh`);
      return e;
    };
    const injected: InjectedModels = pull.role === 'nli' ? { entailment: cache.entailment(raw as EntailmentModel) } : { scorer: cache.scorer(raw as PairScorer) };
    const settings = { index: { dir: 'memory:' }, retrieval: { mode: 'bm25' as const }, verify: { rule: 'columbia' as const } };
    let vc: Veracite | undefined;
    try {
      const train = (await readJsonlFile<GoldClaim & { id: number }>(trainPath, sizes.train)).filter((c) => c.cited_doc_ids.length);
      const wicePath = join(samples, 'wice', 'claim_dev.jsonl');
      const wiceClaims = existsSync(wicePath) ? (await readWiceData(wicePath)).claims.slice(0, sizes.wice) : [];
      const snliPath = join(samples, 'nli', 'snli_dev.jsonl');
      const snli = injected.entailment && existsSync(snliPath) ? (await readJsonlFile<{ premise: string; hypothesis: string; label: string }>(snliPath, sizes.snli)).filter((p) => ['entailment', 'neutral', 'contradiction'].includes(p.label)) : [];
      samplesUsed = { quick: !!o.quick, train: train.length, dev: devClaims.length, wice: wiceClaims.length, snli: snli.length };

      // The estimate, before anything long: pairs the model will read x its measured seconds per pair.
      const pairs = snli.length + PAIRS_PER_CLAIM * (train.length + devClaims.length) + PAIRS_PER_CITATION * wiceClaims.length;
      const onFile = cache.size;
      const perPair = await measurePerPair(injected, snli, train, cache);
      const left = Math.max(0, pairs - onFile);
      log(
        `estimate: about ${pairs} model readings (${snli.length} NLI sample pairs, ${train.length} + ${devClaims.length} SciFact claims x ~${PAIRS_PER_CLAIM}, ${wiceClaims.length} WiCE citations x ~${PAIRS_PER_CITATION})` +
          `${onFile ? `, ${onFile} already read (resuming)` : ''} x ${perPair === undefined ? '?' : `${(perPair * 1000).toFixed(1)} ms`} per pair = ${perPair === undefined ? 'unknown' : formatSeconds(left * perPair)} of model time, plus the pipeline around it (each phase's ETA follows)` +
          `${o.quick ? ' (--quick)' : ' (--quick: a smaller sample in minutes)'}; interrupt at any time and run it again to resume`,
      );

      // 1. The sanity gates on held-out NLI pairs, before anything is fitted: a model that cannot read NLI
      // is refused here, in seconds (learn/verdict/sanity-gates.ts).
      let nliReadings: NliReading[] = [];
      if (injected.entailment) {
        const progress = phaseProgress('NLI sample (sanity gates)', 'pairs', log);
        nliReadings = await readNliSample((p) => injected.entailment!.predict(p), snli, { onProgress: progress });
        const report = sanityGates(nliReadings);
        log(`sanity gates: ${describeGates(report)}`);
        if (!report.passed) throw await refused(new CalibrationRefusedError(`model profile "${o.name}" (${raw.info.id})`, report));
      }

      vc = await Veracite.open(settings, { create: true, models: injected });
      log(`indexing the SciFact sample corpus (${corpus})`);
      await vc.ingest(corpus);
      const verifier = await vc.verifier();
      log(`verdict items: ${train.length} SciFact train sample claims (cited + one shuffled abstract each)`);
      const items = await collectVerdictItems(verifier, train, { onProgress: phaseProgress('SciFact train sample', 'cases', log) });
      const models = [verifier.models.scorer.info, verifier.models.entailment.info];
      const cal = fitVerdictCalibration({ columbia: items.columbia, concat: items.concat }, `${trainPath} (shipped sample; veracite models calibrate)`, models, { heldOut: { folds: 5, repeats: 1, seed: 13 } });
      const rule = cal.bestRule;
      const fitted = cal.rules[rule]!;
      // 2. The fit gate: a calibrator that gives the readings no weight (or exploding ones) decides from
      // relevance alone. Checked before anything is written.
      const ruleItems = (rule === 'concat' ? items.concat : items.columbia).map(({ coverage: _, ...it }) => it);
      const fitCheck = fitGate(fitted.calibrator!, calibratorSpread(ruleItems, fitted.calibrator!));
      // A scorer profile reads relevance, not NLI: the fit gate alone applies to it.
      const gates: GateReport = injected.entailment ? sanityGates(nliReadings, { calibrator: fitted.calibrator!, spread: calibratorSpread(ruleItems, fitted.calibrator!) }) : { passed: fitCheck.passed, checks: [fitCheck] };
      log(`fit gate: ${describeGates({ passed: fitCheck.passed, checks: [fitCheck] })}`);
      if (!gates.passed) throw await refused(new CalibrationRefusedError(`model profile "${o.name}" (${raw.info.id})`, gates));
      gateReport = gates;
      const verdictText = JSON.stringify(cal, null, 2) + '\n';
      await writeFileAtomic(join(dir, VERDICT_CALIBRATION_FILE), verdictText);
      calibration.verdict = { file: VERDICT_CALIBRATION_FILE, sha256: sha256(verdictText) };
      data.push(corpus, trainPath);
      // Held out: the dev sample claims, judged by the fitted rule (as verify decides: without coverage).
      log(`held-out verdicts: ${devClaims.length} SciFact dev sample claims`);
      const dev = await collectVerdictItems(verifier, devClaims, { onProgress: phaseProgress('SciFact dev sample', 'cases', log) });
      const devItems: LabelledPairs[] = (rule === 'concat' ? dev.concat : dev.columbia).map(({ coverage: _, ...it }) => it);
      const cfg = aggregateConfigOf(fitted);
      const right = devItems.filter((it) => aggregateColumbia(it.evidence, cfg, it.relevance ?? 1, knownOf(it)).label === it.gold).length;
      figures['scifact-dev-sample verdict accuracy'] = { value: devItems.length ? right / devItems.length : 0, n: devItems.length, data: devPath, note: `rule ${rule}; cited + shuffled abstracts` };
      figures['scifact-train-sample verdict accuracy (5-fold held out)'] = { value: fitted.fittedOn.heldOut?.accuracy ?? fitted.fittedOn.accuracy, n: fitted.fittedOn.pairs, data: trainPath };
      data.push(devPath);

      // The audit: the probability of support and the flag threshold on the WiCE sample.
      const engine = await vc.models.engine();
      const judged = supportModel(engine.scorer.info, await vc.models.engineEntailment(), join(dir, VERDICT_CALIBRATION_FILE));
      if ('reason' in judged) {
        log(`audit calibration skipped: ${judged.reason}`);
      } else if (wiceClaims.length) {
        const claims = wiceClaims;
        log(`audit calibration: ${claims.length} WiCE dev sample citations`);
        const audit = auditConfigOf(vc.settings, 'bm25', false, pull.scoring);
        const detected = await supportDetection(engine.scorer, judged, claims, { onProgress: phaseProgress('WiCE dev sample', 'citations', log), scoring: audit.scoring });
        const { signal, combined } = combineSupport(detected, claims, wicePath, { onFitError: (e) => log(`support signal not fitted (${e.message}): P(supports) alone is thresholded`) });
        const file = fitAuditCalibration({
          signal,
          claims,
          data: wicePath,
          command: o.command,
          scorer: engine.scorer.info,
          support: judged.info,
          scoring: audit.scoring,
          queryContext: audit.queryContext,
          ...(combined ? { supportSignal: combined } : {}),
        });
        const definitions = file.definitions;
        const auditText = JSON.stringify(file, null, 2) + '\n';
        await writeFileAtomic(join(dir, AUDIT_CALIBRATION_FILE), auditText);
        calibration.audit = { file: AUDIT_CALIBRATION_FILE, sha256: sha256(auditText) };
        figures['wice-dev-sample not_supported ROC AUC (in sample)'] = { value: definitions.not_supported!.rocAuc, n: claims.length, data: wicePath };
        if (combined) figures['wice-dev-sample not_supported ROC AUC (out of fold, by article)'] = { value: combined.outOfFold.rocAuc, n: claims.length, data: wicePath };
        data.push(wicePath);
      }
      if (nliReadings.length) {
        figures['snli-sample accuracy'] = { value: gates.checks.find((c) => c.name === 'accuracy')!.value, n: nliReadings.length, data: snliPath };
        figures['snli-sample entailment ranking ROC AUC'] = { value: gates.checks.find((c) => c.name === 'entailment ranking')!.value, n: gates.checks.find((c) => c.name === 'entailment ranking')!.n, data: snliPath, note: 'entailed vs contradicted pairs' };
        data.push(snliPath);
      }
      log(`model readings: ${cache.computed} read by the model (${cache.secondsPerPair() === undefined ? '-' : `${(cache.secondsPerPair()! * 1000).toFixed(1)} ms per pair`}), ${cache.hits} from ${cache.path}`);
    } finally {
      await vc?.close();
      await raw.dispose?.();
    }
  }

  const profile: ProfileFile = {
    format: 'veracite-model-profile',
    version: 1,
    name: o.name,
    role: pull.role,
    repo: pull.repo,
    revision: manifest.revision,
    dtype: pull.dtype,
    ...(pull.options ? { options: pull.options } : {}),
    ...(pull.mix && pull.role === 'nli' ? { mix: pull.mix } : {}),
    ...(pull.scoring && pull.role === 'nli' ? { scoring: pull.scoring } : {}),
    model: repoFolder(pull.repo),
    modelInfo: { id: modelInfo.id, version: modelInfo.version },
    specs: DEFAULT_SPECS,
    calibration,
    figures,
    calibratedOn: { data: [...new Set(data)], command: o.command },
    ...(samplesUsed ? { samples: samplesUsed } : {}),
    ...(gateReport ? { gates: gateReport } : {}),
    createdAt: new Date().toISOString(),
  };
  // Written last: a folder is calibrated only once this file exists.
  await writeFileAtomic(join(dir, PROFILE_FILE), JSON.stringify(profile, null, 2) + '\n');
  return profile;
}

/**
 * Model readings per SciFact claim (its cited abstract and one shuffled abstract: top sentences, the joined
 * evidence, counter-claims) and per WiCE citation, as counted on the shipped samples' first claims (16
 * SciFact claims and 12 WiCE citations read 226 pairs); the estimate multiplies them.
 */
const PAIRS_PER_CLAIM = 10;
const PAIRS_PER_CITATION = 6;

/** `--quick`: the first claims and pairs of each sample (the rest is the full run). */
export const QUICK_SIZES = { train: 80, dev: 40, wice: 40, snli: 300 } as const;

/** Seconds per pair on a first small batch (read into the cache, so nothing is read twice). */
async function measurePerPair(m: InjectedModels, snli: readonly { premise: string; hypothesis: string }[], train: readonly GoldClaim[], cache: ReadingCache): Promise<number | undefined> {
  const before = cache.seconds;
  const n = cache.computed;
  // Pairs not on file (a resumed run has read the first ones): the NLI sample's, else claims against claims.
  const fresh = [...snli, ...train.map((c, i) => ({ premise: train[(i + 1) % train.length]!.claim, hypothesis: c.claim }))].filter((p) => !(m.entailment ? cache.has(p.premise, p.hypothesis) : cache.has(p.hypothesis, p.premise))).slice(0, 16);
  if (m.entailment && fresh.length) await m.entailment.predict(fresh.map((p) => ({ premise: p.premise, hypothesis: p.hypothesis })));
  else if (m.scorer && fresh.length) await m.scorer.score(fresh.map((p) => ({ query: p.hypothesis, passage: p.premise })));
  return cache.computed > n ? (cache.seconds - before) / (cache.computed - n) : cache.secondsPerPair();
}

function formatSeconds(s: number): string {
  return s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 60 ? `${Math.round(s / 60)} min` : `${Math.ceil(s)} s`;
}

/** A phase's progress as log lines (at most one every 2 s, and the last): done/total, rate, ETA. */
function phaseProgress(label: string, unit: string, log: (line: string) => void): (done: number, total: number) => void {
  const started = performance.now();
  let last = 0;
  return (done, total) => {
    const now = performance.now();
    if (done < total && now - last < 2000) return;
    last = now;
    const s = (now - started) / 1000;
    log(`  ${label}: ${done}/${total} ${unit} | ${formatRate(done, s)} ${unit}/s | ETA ${formatEta(done, total, s)}`);
  };
}
