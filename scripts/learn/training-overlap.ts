/**
 * What of each calibration sample (data/samples/calibration) the shipped cross-encoder was trained on, by
 * scripts/model/build_data.py's splits (training-split.ts): a profile figure read on the model's own training data
 * must say so, or it reads as a held-out figure. Written into each figure's `trainedOn` by calibrate-engine.ts.
 *
 * - SciFact train sample: build_data.py trains on every SciFact train claim outside its selection split;
 * - WiCE dev sample: it trains on the claims outside its held-out 30%;
 * - SNLI sample (the first 1,500 pairs of SNLI dev): it trains on SNLI dev beyond the 1,000 pairs a seeded shuffle
 *   draws for selection, so about 90% of the sample; Python's shuffle is not redone here, hence "about";
 * - SciFact dev sample: never trained on.
 */
import { basename, dirname } from 'node:path';
import type { ProfileFigures, ProfileFile } from '../../src/models/hub/profile.js';
import { readJsonlFile } from '../../src/util/jsonl-file.js';
import { scifactSelection, wiceHeldOut } from './training-split.js';

/** `samplesDir`: the calibration samples' folder; `read`: how many items of each the calibration read. */
export async function trainingOverlap(figures: ProfileFigures, samplesDir: string, read: NonNullable<ProfileFile['samples']>): Promise<ProfileFigures> {
  const out: ProfileFigures = {};
  for (const [name, f] of Object.entries(figures)) {
    const sample = `${basename(dirname(f.data))}/${basename(f.data)}`;
    let trainedOn: string | undefined;
    if (sample === 'scifact/claims_train.jsonl') {
      const claims = await readJsonlFile<{ id: number }>(`${samplesDir}/${sample}`, read.train);
      const trained = claims.filter((c) => !scifactSelection(c.id)).length;
      trainedOn = `${trained} of these ${claims.length} claims (build_data.py trains on SciFact train outside its selection split): in sample for the cross-encoder`;
    } else if (sample === 'wice/claim_dev.jsonl') {
      const claims = await readJsonlFile<{ claim: string }>(`${samplesDir}/${sample}`, read.wice);
      const trained = claims.filter((c) => !wiceHeldOut(c.claim)).length;
      trainedOn = `${trained} of these ${claims.length} claims (build_data.py trains on WiCE dev outside its held-out 30%): mostly in sample for the cross-encoder`;
    } else if (sample === 'nli/snli_dev.jsonl') {
      trainedOn = `about 90% of these pairs (its training pool: SNLI dev beyond the 1,000 pairs build_data.py draws for selection, 4,000 of the pool sampled per epoch): mostly in sample; the held-out SNLI figure is in models/verifier/MODEL_CARD.md`;
    } else if (sample === 'scifact/claims_dev.jsonl') {
      trainedOn = 'none of these claims (SciFact dev is never trained on)';
    }
    out[name] = { ...f, ...(trainedOn ? { trainedOn } : {}) };
  }
  return out;
}
