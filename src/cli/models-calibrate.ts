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
import { join } from 'node:path';
import { auditConfigOf } from '../app/audit.js';
import { Veracite } from '../app/veracite.js';
import type { InjectedModels } from '../app/models.js';
import { supportModel } from '../audit/support.js';
import { combineSupport, fitAuditCalibration } from '../eval/audit-calibration.js';
import { readWiceData } from '../eval/run-citation-detection.js';
import { supportDetection } from '../eval/support-detection.js';
import { collectVerdictItems, type GoldClaim } from '../learn/verdict/collect-pairs.js';
import { fitVerdictCalibration } from '../learn/verdict/fit-verdict.js';
import { knownOf, type LabelledPairs } from '../learn/verdict/labelled-pairs.js';
import { HubError, readManifest, verifyFolder } from '../models/hub/download.js';
import { modelsHome, profileDir, readPullInfo } from '../models/hub/home.js';
import { AUDIT_CALIBRATION_FILE, PROFILE_FILE, VERDICT_CALIBRATION_FILE, repoFolder, type ProfileFigures, type ProfileFile } from '../models/hub/profile.js';
import { loadEmbedder, loadEntailment, loadPairScorer } from '../models/registry.js';
import type { OnnxLoadOptions } from '../models/onnx/load.js';
import type { EntailmentModel, ModelInfo } from '../models/types.js';
import { packageRoot } from '../util/package-root.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { aggregateColumbia } from '../verify/aggregate.js';
import { aggregateConfigOf } from '../verify/verdict-calibration.js';
import { readJsonlFile } from '../util/jsonl-file.js';

export interface CalibrateProfileOptions {
  name: string;
  home?: string;
  /**
   * The labelled samples folder (default data/samples/calibration of the package, written by
   * scripts/build-calibration-samples.mjs): scifact/{corpus,claims_train,claims_dev}.jsonl,
   * wice/claim_dev.jsonl, nli/snli_dev.jsonl.
   */
  samples?: string;
  /** First n items of each sample (tests, quick runs). */
  limit?: { train?: number; dev?: number; wice?: number; snli?: number };
  device?: 'cpu' | 'cuda';
  command: string;
  log?: (line: string) => void;
}

const DEFAULT_SPECS = { embedder: 'use', scorer: 'trained', nli: 'trained' };


const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function calibrateProfile(o: CalibrateProfileOptions): Promise<ProfileFile> {
  const log = o.log ?? (() => {});
  const home = modelsHome(o.home);
  const dir = profileDir(o.name, home);
  const pull = await readPullInfo(dir);
  if (!pull) throw new HubError(`model profile "${o.name}" is not installed in ${home}: veracite models pull ${o.name} (or models import <folder>)`);
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

  const corpus = join(samples, 'scifact', 'corpus.jsonl');
  const trainPath = join(samples, 'scifact', 'claims_train.jsonl');
  const devPath = join(samples, 'scifact', 'claims_dev.jsonl');
  for (const p of [corpus, trainPath, devPath]) if (!existsSync(p)) throw new Error(`${p}: labelled sample missing (data/samples/calibration: scripts/build-calibration-samples.mjs)`);
  const devClaims = (await readJsonlFile<GoldClaim & { id: number }>(devPath, o.limit?.dev)).filter((c) => c.cited_doc_ids.length);

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
    const injected: InjectedModels = {};
    if (pull.role === 'nli') injected.entailment = await loadEntailment(modelDir, { onnx });
    else injected.scorer = await loadPairScorer(modelDir, { onnx });
    modelInfo = (injected.entailment ?? injected.scorer)!.info;
    const settings = { index: { dir: 'memory:' }, retrieval: { mode: 'bm25' as const }, verify: { rule: 'columbia' as const } };
    const vc = await Veracite.open(settings, { create: true, models: injected });
    try {
      log(`indexing the SciFact sample corpus (${corpus})`);
      await vc.ingest(corpus);
      const verifier = await vc.verifier();
      const train = await readJsonlFile<GoldClaim & { id: number }>(trainPath, o.limit?.train);
      log(`verdict items: ${train.length} SciFact train sample claims (cited + one shuffled abstract each)`);
      const items = await collectVerdictItems(verifier, train.filter((c) => c.cited_doc_ids.length), { onProgress: (d, t) => d % 50 === 0 && log(`  ${d}/${t}`) });
      const models = [verifier.models.scorer.info, verifier.models.entailment.info];
      const cal = fitVerdictCalibration({ columbia: items.columbia, concat: items.concat }, `${trainPath} (shipped sample; veracite models calibrate)`, models, { heldOut: { folds: 5, repeats: 1, seed: 13 } });
      const verdictText = JSON.stringify(cal, null, 2) + '\n';
      await writeFileAtomic(join(dir, VERDICT_CALIBRATION_FILE), verdictText);
      calibration.verdict = { file: VERDICT_CALIBRATION_FILE, sha256: sha256(verdictText) };
      data.push(corpus, trainPath);
      // Held out: the dev sample claims, judged by the fitted rule (as verify decides: without coverage).
      log(`held-out verdicts: ${devClaims.length} SciFact dev sample claims`);
      const dev = await collectVerdictItems(verifier, devClaims);
      const rule = cal.bestRule;
      const fitted = cal.rules[rule]!;
      const devItems: LabelledPairs[] = (rule === 'concat' ? dev.concat : dev.columbia).map(({ coverage: _, ...it }) => it);
      const cfg = aggregateConfigOf(fitted);
      const right = devItems.filter((it) => aggregateColumbia(it.evidence, cfg, it.relevance ?? 1, knownOf(it)).label === it.gold).length;
      figures['scifact-dev-sample verdict accuracy'] = { value: devItems.length ? right / devItems.length : 0, n: devItems.length, data: devPath, note: `rule ${rule}; cited + shuffled abstracts` };
      figures['scifact-train-sample verdict accuracy (5-fold held out)'] = { value: fitted.fittedOn.heldOut?.accuracy ?? fitted.fittedOn.accuracy, n: fitted.fittedOn.pairs, data: trainPath };
      data.push(devPath);

      // The audit: the probability of support and the flag threshold on the WiCE sample.
      const wicePath = join(samples, 'wice', 'claim_dev.jsonl');
      const engine = await vc.models.engine();
      const judged = supportModel(engine.scorer.info, await vc.models.engineEntailment(), join(dir, VERDICT_CALIBRATION_FILE));
      if ('reason' in judged) {
        log(`audit calibration skipped: ${judged.reason}`);
      } else {
        const claims = (await readWiceData(wicePath)).claims.slice(0, o.limit?.wice);
        log(`audit calibration: ${claims.length} WiCE dev sample citations`);
        const audit = auditConfigOf(vc.settings, 'bm25', false);
        const detected = await supportDetection(engine.scorer, judged, claims);
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
      if (injected.entailment) {
        const snliPath = join(samples, 'nli', 'snli_dev.jsonl');
        const pairs = (await readJsonlFile<{ premise: string; hypothesis: string; label: string }>(snliPath, o.limit?.snli)).filter((p) => ['entailment', 'neutral', 'contradiction'].includes(p.label));
        figures['snli-sample accuracy'] = { value: await nliAccuracy(injected.entailment, pairs), n: pairs.length, data: snliPath };
        data.push(snliPath);
      }
    } finally {
      await vc.close();
      await injected.entailment?.dispose?.();
      await injected.scorer?.dispose?.();
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
    model: repoFolder(pull.repo),
    modelInfo: { id: modelInfo.id, version: modelInfo.version },
    specs: DEFAULT_SPECS,
    calibration,
    figures,
    calibratedOn: { data: [...new Set(data)], command: o.command },
    createdAt: new Date().toISOString(),
  };
  // Written last: a folder is calibrated only once this file exists.
  await writeFileAtomic(join(dir, PROFILE_FILE), JSON.stringify(profile, null, 2) + '\n');
  return profile;
}

async function nliAccuracy(model: EntailmentModel, pairs: { premise: string; hypothesis: string; label: string }[]): Promise<number> {
  if (!pairs.length) return 0;
  const probs = await model.predict(pairs.map((p) => ({ premise: p.premise, hypothesis: p.hypothesis })));
  let right = 0;
  probs.forEach((p, i) => {
    const best = (['entailment', 'neutral', 'contradiction'] as const).reduce((a, b) => (p[b] > p[a] ? b : a));
    if (best === pairs[i]!.label) right++;
  });
  return right / pairs.length;
}
