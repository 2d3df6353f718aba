/**
 * `veracite train`: trains the offline NLI head and evidence scorer (src/models/trained/) on frozen USE
 * embeddings and writes weights + reports to --out. Same data + seed -> byte-identical weights.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { packageRoot } from '../util/package-root.js';
import { oneOf, positiveInt } from './options.js';
import { MissingInputError, UsageError } from '../util/exit-codes.js';

export const TRAIN_HEADS = ['nli', 'evidence'] as const;

function seedArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new InvalidArgumentError(`--seed must be an integer in [0, 2^32) (got "${value}")`);
  return n;
}

interface TrainFlags {
  data: string;
  out: string;
  seed: number;
  only?: (typeof TRAIN_HEADS)[number];
  cache: string | false;
  ablation: boolean;
  threads: number;
  annotations?: string;
  quiet?: boolean;
  contrast: boolean;
  reverseTwins?: boolean;
  sick?: boolean;
}

export function registerTrainCommand(program: Command): void {
  program
    .command('train')
    .description('train the offline entailment head and evidence scorer on USE embeddings (SNLI, RTE, SciFact)')
    .option('--data <dir>', 'shared data folder holding nli/ and scifact/', '../shared/data')
    .option('--out <dir>', 'output folder for weights and reports', 'models')
    .option('--seed <n>', 'random seed (splits, sampling, init, shuffling)', seedArg, 13)
    .option('--only <head>', `train one head: ${TRAIN_HEADS.join('|')}`, oneOf('--only', TRAIN_HEADS))
    .option('--cache <dir>', 'embedding cache folder', 'tmp/train-cache')
    .option('--no-cache', 'embed everything again, without reading or writing the cache')
    .option('--no-ablation', 'skip the NLI source ablation (6 extra linear fits) in the report')
    // One thread by default: the committed weights are reproduced bit for bit only if the embedding
    // arithmetic is, and onnxruntime's reductions can split differently across thread counts.
    .option('--threads <n>', 'embedder threads (1 reproduces the committed weights exactly)', positiveInt('--threads'), 1)
    .option('--annotations <file>', 'add blind-comparison annotations (veracite annotations export) to the training pairs')
    .option('--no-contrast', 'leave out the rule-made contrast twins (src/learn/contrast) of supported training pairs')
    .option('--reverse-twins', 'add reverse twins: contradicted SciFact train claims with negation toggled, as entailment (opt-in; see docs/RESULTS-HISTORY.md)')
    .option('--sick', 'add SICK train pairs (nli/sick; CC BY-NC-SA 3.0, non-commercial: weights trained with it must not be shipped, so --out must not be models/)')
    .option('-q, --quiet', 'only print the summary')
    .action(async (flags: TrainFlags) => {
      const [{ createUseEmbedder }, { runTraining }, { pct }] = await Promise.all([import('../models/use/index.js'), import('../learn/heads/train.js'), import('../learn/heads/train-nli.js')]);
      // SICK is non-commercial: the product's weights never see it, so refuse to write them where they ship.
      if (flags.sick && resolve(flags.out) === resolve(packageRoot(), 'models')) {
        throw new UsageError('--sick: SICK is CC BY-NC-SA (non-commercial) and the weights in models/ ship with veracite; pass --out to another folder, e.g. --out tmp/models-sick');
      }
      if (flags.sick && !existsSync(join(flags.data, 'nli', 'sick'))) throw new MissingInputError(`--sick: ${join(flags.data, 'nli', 'sick')} not found`);
      if (flags.annotations && !existsSync(flags.annotations)) throw new MissingInputError(`--annotations ${flags.annotations}: file not found`);
      for (const sub of ['nli/snli', 'nli/rte', 'scifact']) {
        if (!existsSync(join(flags.data, sub))) throw new MissingInputError(`--data ${flags.data}: ${join(flags.data, sub)} not found (expected the shared data folder)`);
      }
      const log = flags.quiet ? () => {} : (line: string) => console.error(line);
      const embedder = await createUseEmbedder({ threads: flags.threads });
      try {
        const r = await runTraining(embedder, {
          data: flags.data,
          out: flags.out,
          seed: flags.seed,
          only: flags.only,
          cacheDir: flags.cache === false ? undefined : flags.cache,
          ablation: flags.ablation,
          annotations: flags.annotations,
          dataOptions: { contrast: flags.contrast, contrastReverse: !!flags.reverseTwins, sick: !!flags.sick },
          log,
        });
        if (r.nli) {
          console.log(`NLI head: ${r.nli.path} (sha256 ${r.nli.sha256.slice(0, 16)}), SNLI held-out ${pct(r.nli.snliHeld.accuracy)}, RTE dev ${pct(r.nli.rteDev.accuracy)}, SciFact dev pairs ${pct(r.nli.sciDev.accuracy)} (balanced ${pct(r.nli.sciDev.balancedAccuracy)})`);
        }
        if (r.evidence) {
          const d = r.evidence.dev;
          console.log(`evidence scorer: ${r.evidence.path} (sha256 ${r.evidence.sha256.slice(0, 16)}), SciFact dev P ${pct(d.atThreshold.precision)} R ${pct(d.atThreshold.recall)} F1 ${pct(d.atThreshold.f1)}, recall@5 ${pct(d.ranking.recallAt5)}`);
        }
      } finally {
        await embedder.dispose?.();
      }
    });
}
