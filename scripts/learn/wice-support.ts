/**
 * The audit's support judgement over WiCE claims, as `veracite audit` judges a cited page: the engine the
 * composition root loads (no index: the claims carry their cited pages), its probability of support and
 * the page similarity per claim. Shared by support-detection.ts and citation-band-rows.ts. `profile`: the engine
 * to judge with (`--profile verifier`: the shipped cross-encoder with its own calibration, as the audit loads
 * it); the default engine without it.
 */
import { Veracite } from '../../src/app/veracite.js';
import { auditConfigOf } from '../../src/app/audit.js';
import { supportModel } from '../../src/audit/support.js';
import { readWiceClaims } from '../../src/eval/run-citation-detection.js';
import { supportDetection } from '../../src/eval/support-detection.js';

export async function wiceSupport(data: string, cache: string, name: string, every: number, profile?: string) {
  const claims = await readWiceClaims(data);
  const vc = await Veracite.open({ index: { dir: null }, models: { cache, ...(profile ? { profile } : {}) } });
  const loaded = await vc.models.engine();
  // As the audit (app/audit.ts): a profile brings its own verdict calibration.
  const support = supportModel(loaded.scorer.info, await vc.models.engineEntailment(), vc.models.profile?.verdictCalibration, vc.models.profile?.reviewModel);
  if ('reason' in support) throw new Error(support.reason);
  const t0 = performance.now();
  const onProgress = (d: number, t: number) => {
    if (d % every === 0 || d === t) process.stderr.write(`${name}: ${d}/${t} (${(d / ((performance.now() - t0) / 1000)).toFixed(2)} claims/s)\n`);
  };
  // As the audit reads a cited page: the profile's own evidence size, if it has one.
  const r = await supportDetection(loaded.scorer, support, claims, { onProgress, scoring: auditConfigOf(vc.settings, 'bm25', false, vc.models.profile?.file.scoring).scoring });
  return { vc, claims, loaded, support, r, t0 };
}
