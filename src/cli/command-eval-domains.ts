/**
 * `veracite eval domains`: the verdict layer per labelled domain (SciFact train, SNLI, RTE, WiCE dev; SICK
 * with --sick; SciFact dev as the final check), leave-one-domain-out: label accuracy against the majority
 * class, per-class recall, ECE, and the needs-review risk-coverage (selective accuracy at 25/50/75/100%
 * coverage, AURC, AUROC of P(right)). The same run as `veracite tune-verdict --domains`, without saving a
 * model; the engine's readings are cached in tmp/domains.
 */
import type { Command } from 'commander';
import { addOptions, positiveInt, settingsFrom, type OptionPick } from './options.js';

const DOMAIN_OPTIONS: OptionPick = { models: ['scorer', 'nli', 'device', 'profile'] };

export function registerEvalDomainsCommand(evalCmd: Command): void {
  addOptions(
    evalCmd
      .command('domains')
      .description('the verdict layer per domain, leave-one-domain-out: accuracy vs majority, per-class recall, ECE, needs-review risk-coverage')
      .option('--data <dir>', 'shared data folder (scifact/, nli/, wice/)', '../shared/data')
      .option('--seed <n>', 'seed of the samples and splits', positiveInt('--seed'), 13)
      .option('--sick', 'add SICK (opt-in: CC BY-NC-SA) to the domains')
      .option('--health', 'also check the shipped layer on COVID-Fact and HealthVer dev (validation only, never fitted on: no licence stated)')
      .option('--out <file>', 'result JSON (veracite eval report draws it)', 'eval-results/verdict-domains.json')
      .option('--limit <n>', 'read at most n claims (SciFact) or pairs (the others) per domain, a seeded sample: a quick look, not the reported figures', positiveInt('--limit'))
      .option('--cache <dir>', "where the engine's readings of each domain are cached", 'tmp/domains')
      .option('--quiet', 'no progress output'),
    DOMAIN_OPTIONS,
  ).action(async (flags: { data: string; seed: number; sick?: boolean; health?: boolean; out: string; limit?: number; cache: string; quiet?: boolean } & Record<string, unknown>) => {
    const [{ reportDomains }, { runDomainReport, DOMAIN_LIMITS, DOMAIN_CAP }] = await Promise.all([import('../learn/verdict/domains.js'), import('./tune-domains.js')]);
    const { fit, domains } = reportDomains(flags);
    const limits = flags.limit === undefined ? DOMAIN_LIMITS : Object.fromEntries(domains.map((d) => [d, flags.limit!]));
    await runDomainReport({ settings: settingsFrom(flags, DOMAIN_OPTIONS), data: flags.data, domains, fit, limits, cacheDir: flags.cache, seed: flags.seed, cap: DOMAIN_CAP, out: flags.out, log: flags.quiet ? () => {} : (line: string) => console.error(line) });
  });
}
