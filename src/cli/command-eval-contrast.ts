/**
 * `veracite eval contrast`: minimal-edit twins of SciFact dev's supported (claim, abstract) pairs (direction
 * flipped, negation added or removed, an antonym, a number or a name changed) and the share of pairs where
 * the original gets SUPPORTS and its twin does not; plus claims paired with another claim's abstract, which
 * should be NOT ENOUGH INFO. The twin rules are the ones training uses (another seed, dev claims): an
 * in-distribution check, not a test on claims written otherwise.
 */
import type { Command } from 'commander';
import { readSciFactClaims } from '../eval/run-scifact.js';
import { commandLine, saveJson, withJsonOutput } from './command-line.js';
import { VERIFY_OPTIONS } from './command-verify.js';
import { withApp } from './open-app.js';
import { addOptions } from './options.js';
import { createProgress } from './progress.js';

export function registerEvalContrastCommand(evalCmd: Command): void {
  addOptions(
    evalCmd
      .command('contrast')
      .description('contrast consistency on minimal-edit twins of SciFact dev supported claims, and NOT ENOUGH INFO on shuffled (claim, abstract) pairs')
      .option('--claims <file>', 'SciFact claims with evidence (dev)', 'data/samples/scifact/claims_dev.jsonl')
      .option('--out <file>', 'result JSON', 'eval-results/contrast.json')
      .option('--json', 'print the result JSON on stdout (the summary goes to stderr)')
      .option('--quiet', 'no progress output'),
    VERIFY_OPTIONS,
  ).action((flags: { claims: string; out: string; json?: boolean; quiet?: boolean } & Record<string, unknown>, cmd: Command) =>
    withJsonOutput(flags.json, () =>
      withApp(flags, VERIFY_OPTIONS, async (vc) => {
        const { runContrastEval } = await import('../eval/run-contrast.js');
        const claims = await readSciFactClaims(flags.claims);
        const store = vc.requireStore();
        const verifier = await vc.verifier();
        let bar: ReturnType<typeof createProgress> | undefined;
        const result = await runContrastEval(verifier, claims, async (id) => (await store.getDocuments([id]))[0]?.sentences, {
          onProgress: (d, t) => (bar ??= createProgress('contrast', t, 'pairs', { quiet: flags.quiet })).update(d),
        });
        bar?.stop();
        const saved = { ...result, claims: flags.claims, provenance: await verifier.provenance(), command: commandLine(cmd) };
        await saveJson(flags.out, saved);
        const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
        console.log(`contrast consistency ${pct(result.consistency)} over ${result.pairs} (original, twin) pairs (original SUPPORTS ${pct(result.originalSupported)}, twin SUPPORTS ${pct(result.twinSupported)}, twin REFUTES ${pct(result.twinRefuted)})`);
        for (const [rule, r] of Object.entries(result.byRule)) console.log(`  ${rule.padEnd(9)} ${r.pairs} pairs, consistency ${pct(r.consistency)}, twin REFUTES ${pct(r.twinRefuted)}`);
        console.log(`shuffled: ${pct(result.shuffled.notEnoughInfo)} NOT ENOUGH INFO over ${result.shuffled.pairs} (claim, another claim's abstract) pairs ${JSON.stringify(result.shuffled.labels)}`);
        console.log(result.note);
        console.log(`saved ${flags.out}`);
        return saved;
      }),
    ),
  );
}
