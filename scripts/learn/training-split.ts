/**
 * The verifier's training splits as scripts/model/build_data.py draws them, for the scripts that must tell the
 * rows it trained on from those it did not: build_data.py's h(), sha256 of a key, its first 8 hex digits as a
 * fraction of 0xFFFFFFFF. Keys: "wice-" + claim (under 0.30: held out of training), "scifact-" + claim id (under
 * 0.15: the selection split, never trained on).
 */
import { createHash } from 'node:crypto';

export const splitHash = (key: string): number => parseInt(createHash('sha256').update(key).digest('hex').slice(0, 8), 16) / 0xffffffff;

/** A WiCE dev claim build_data.py holds out of the verifier's training (report_wice). */
export const wiceHeldOut = (claim: string): boolean => splitHash('wice-' + claim) < 0.3;

/** A SciFact train claim in build_data.py's selection split (sel_scifact), never trained on. */
export const scifactSelection = (id: number): boolean => splitHash(`scifact-${id}`) < 0.15;
