/**
 * `veracite tune-verdict`: fit the verdict thresholds and confidence temperature on SciFact train claims
 * (oracle abstracts) and save them to models/verdict-calibration.json.
 */
import type { Command } from 'commander';
import { readSciFactClaims } from '../eval/run-scifact.js';
import { fitVerdictCalibration, saveVerdictCalibration, CALIBRATION_PATH, type LabelledPairs } from '../learn/verdict/fit-verdict.js';
import type { Label } from '../verify/types.js';
import { Veracite } from '../app/veracite.js';
import { VERIFY_OPTIONS } from './command-verify.js';
import { addOptions, settingsFrom } from './options.js';
import { createProgress } from './progress.js';

const FROM_SCIFACT: Record<string, Label> = { SUPPORT: 'SUPPORTS', CONTRADICT: 'REFUTES' };

export function registerTuneVerdictCommand(program: Command): void {
  addOptions(
    program
      .command('tune-verdict')
      .description('fit the verdict rule thresholds and confidence temperature on SciFact train claims (oracle abstracts)')
      .option('--claims <file>', 'SciFact train claims', '../shared/data/scifact/claims_train.jsonl')
      .option('--out <file>', 'where to save', CALIBRATION_PATH)
      .option('--quiet', 'no progress output'),
    VERIFY_OPTIONS,
  ).action(async (flags: { claims: string; out: string; quiet?: boolean } & Record<string, unknown>) => {
    const claims = await readSciFactClaims(flags.claims);
    // Raw probabilities: the rule must not already apply thresholds while they are being fitted.
    const settings = settingsFrom(flags, VERIFY_OPTIONS);
    const vc = await Veracite.open({ ...settings, verify: { ...settings.verify, rule: 'columbia' } });
    // verifyEachDocument with the columbia rule attaches each evidence sentence's entailment probabilities.
    try {
      const verifier = await vc.verifier();
      const columbia: LabelledPairs[] = [];
      const concat: LabelledPairs[] = [];
      const { entailment } = verifier.models;
      const bar = createProgress('tune-verdict', claims.length, 'claims', { quiet: flags.quiet });
      for (const [i, c] of claims.entries()) {
        const verdicts = await verifier.verifyEachDocument(c.claim, c.cited_doc_ids.map(String));
        for (const v of verdicts) {
          const gold = FROM_SCIFACT[c.evidence[v.docId]?.[0]?.label ?? ''] ?? 'NOT ENOUGH INFO';
          columbia.push({ evidence: v.evidence.map((e) => e.entailment!).filter(Boolean), gold });
          const premise = v.evidence.map((e) => e.text).join(' ');
          concat.push({ evidence: premise ? await entailment.predict([{ premise, hypothesis: c.claim }]) : [], gold });
        }
        bar.update(i + 1);
      }
      bar.stop();
      const cal = fitVerdictCalibration({ columbia, concat }, flags.claims, [verifier.models.scorer.info, verifier.models.entailment.info]);
      await saveVerdictCalibration(cal, flags.out);
      for (const [rule, r] of Object.entries(cal.rules)) {
        console.log(`${rule}: support >= ${r.supportThreshold}, refute >= ${r.refuteThreshold}, temperature ${r.temperature}: train accuracy ${(100 * r.fittedOn.accuracy).toFixed(1)}% ` +
          `(default thresholds ${(100 * r.fittedOn.defaultAccuracy).toFixed(1)}%, majority ${(100 * r.fittedOn.majorityBaseline).toFixed(1)}%) over ${r.fittedOn.pairs} pairs`);
      }
      console.log(`default rule: ${cal.bestRule}; saved ${flags.out}`);
    } finally {
      await vc.close();
    }
  });
}
