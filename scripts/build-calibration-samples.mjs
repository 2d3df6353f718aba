#!/usr/bin/env node
/**
 * Writes data/samples/calibration/: the labelled samples `veracite models calibrate` fits a pulled model's
 * profile on (issue 29), from the full datasets (deterministic: same input, same bytes). Lines are copied
 * byte for byte; only the choice of lines is computed. The older samples (data/samples/scifact, wice, nli;
 * scripts/build-samples.mjs) are not touched: the demo index and many tests read them.
 *   node scripts/build-calibration-samples.mjs [/work/shared/data]
 *
 * Only datasets whose licences allow redistribution: SciFact (claims CC BY 4.0, abstracts ODC-By 1.0),
 * WiCE (annotations ODC-BY, text CC BY-SA + Common Crawl terms), SNLI (CC BY-SA 4.0). Never SICK
 * (non-commercial), COVID-Fact or HealthVer (no licence).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = process.argv[2] ?? '/work/shared/data';
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'samples', 'calibration');
const lines = (p) => readFileSync(join(src, p), 'utf8').split('\n').filter((l) => l.trim() !== '');
const write = (p, ls) => {
  mkdirSync(dirname(join(out, p)), { recursive: true });
  writeFileSync(join(out, p), ls.map((l) => l + '\n').join(''));
  console.log(`calibration/${p}: ${ls.length} lines, ${(statSync(join(out, p)).size / 1024).toFixed(0)} KiB`);
};

/** Sizes: large enough to fit a verdict rule, a relevance gate and a probability calibrator on. */
const TRAIN_CLAIMS = 400; // of the 609 training claims in the shared copy (fitted on)
const DEV_CLAIMS = 300; // every SciFact dev claim (held out: never fitted on)
const WICE_CLAIMS = 150; // WiCE dev claims with their cited pages' sentences (the audit's thresholds)
const SNLI_PAIRS = 1500; // SNLI 1.0 dev pairs (an NLI model's accuracy)

// SciFact: the first TRAIN_CLAIMS train claims, the first DEV_CLAIMS dev claims, and exactly the abstracts
// they cite (corpus order). Calibration pairs each claim with its cited abstracts and with another claim's
// cited abstract, so no distractor is needed.
const train = lines('scifact/claims_train.jsonl').slice(0, TRAIN_CLAIMS);
const dev = lines('scifact/claims_dev.jsonl').slice(0, DEV_CLAIMS);
const cited = new Set();
for (const l of [...train, ...dev]) {
  const c = JSON.parse(l);
  for (const id of c.cited_doc_ids ?? []) cited.add(String(id));
  for (const id of Object.keys(c.evidence ?? {})) cited.add(id);
}
const corpus = lines('scifact/corpus.jsonl').filter((l) => cited.has(String(JSON.parse(l).doc_id)));
if (corpus.length !== cited.size) throw new Error(`${cited.size - corpus.length} cited abstracts missing from the corpus`);
write('scifact/claims_train.jsonl', train);
write('scifact/claims_dev.jsonl', dev);
write('scifact/corpus.jsonl', corpus);

// WiCE: the first WICE_CLAIMS dev claims (each holds its cited page's sentences: no corpus needed).
write('wice/claim_dev.jsonl', lines('wice/claim_dev.jsonl').slice(0, WICE_CLAIMS));

// SNLI: the first SNLI_PAIRS dev pairs (pairs without a gold label, "-", are skipped by the reader).
write('nli/snli_dev.jsonl', lines('nli/snli/snli_dev.jsonl').slice(0, SNLI_PAIRS));
