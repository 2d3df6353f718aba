/**
 * Training reports next to the weights: JSON for tools, Markdown for people. Timings live here (not in
 * the weights file) so the weights stay byte-identical across runs with the same seed.
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ClassificationReport } from './metrics.js';
import type { NliOutcome } from './train-nli.js';
import type { EvidenceOutcome } from './train-evidence.js';

export interface RunContext {
  seed: number;
  embedSeconds: number;
  /** Distinct texts the run needed, and how many of them were not in the cache. */
  texts: number;
  embeddedNow: number;
  embedder: { id: string; version: string; dimension: number };
  dataRoot: string;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const r4 = (x: number) => Number(x.toFixed(4));

function confusionTable(r: ClassificationReport): string {
  const head = `| gold \\ predicted | ${r.labels.join(' | ')} | accuracy |`;
  const sep = `|---|${r.labels.map(() => '---:').join('|')}|---:|`;
  const rows = r.labels.map((l, i) => `| ${l} | ${r.confusion[i].join(' | ')} | ${pct(r.perClass[l].accuracy)} (n=${r.perClass[l].n}) |`);
  return [head, sep, ...rows].join('\n');
}

function perClassLine(r: ClassificationReport): string {
  // Classes the set has none of are left out (an accuracy of 0% over 0 items would read as a result).
  return r.labels.filter((l) => r.perClass[l].n > 0).map((l) => `${l} ${pct(r.perClass[l].accuracy)}`).join(', ');
}

// Both heads come from one command; --only / --no-ablation give the same weights. (The alignment analysis
// splits text before wink-nlp reads it, so wink's word learning cannot make features depend on what was
// read before: see align/analyse.ts presplit.)
const command = (ctx: RunContext) => `veracite train --data ${ctx.dataRoot} --seed ${ctx.seed}`;
const embedLine = (ctx: RunContext) =>
  `embedding ${ctx.embedSeconds.toFixed(0)} s for ${ctx.embeddedNow} of ${ctx.texts} distinct texts (the rest from the cache)`;

export function writeNliReport(outDir: string, o: NliOutcome & { path: string; sha256: string }, ctx: RunContext): void {
  const json = {
    weights: basename(o.path),
    sha256: o.sha256,
    seed: ctx.seed,
    embedder: ctx.embedder,
    config: o.config,
    hidden: o.hiddenChoice,
    sizes: o.sizes,
    bestEpoch: o.bestEpoch,
    epochsRun: o.epochsRun,
    trainSeconds: r4(o.trainSeconds),
    embedSeconds: r4(ctx.embedSeconds),
    texts: ctx.texts,
    embeddedNow: ctx.embeddedNow,
    validation: o.validation,
    validationSciFact: o.validationSciFact,
    validationContrast: o.validationContrast,
    contrastTwins: o.contrastCounts,
    snliHeldout: o.snliHeld,
    rteDev: o.rteDev,
    scifactDevPairs: o.sciDev,
    ablation: o.ablation?.map((a) => ({
      sources: a.sources,
      validationAccuracy: r4(a.validationAccuracy),
      validationSciFactBalanced: r4(a.validationSciFactBalanced),
      snliHeldout: r4(a.snliHeld.accuracy),
      rteDev: r4(a.rteDev.accuracy),
      scifactDev: r4(a.sciDev.accuracy),
      scifactDevBalanced: r4(a.sciDev.balancedAccuracy),
      scifactDevPerClass: Object.fromEntries(Object.entries(a.sciDev.perClass).map(([k, v]) => [k, r4(v.accuracy)])),
    })),
  };
  writeFileSync(join(outDir, 'nli-head.report.json'), `${JSON.stringify(json, null, 2)}\n`);
  const ablation = o.ablation
    ? [
        '## Which sources help (linear head, same seed)',
        '',
        '| sources | SciFact validation balanced (train) | SNLI held-out | RTE dev (2-way) | SciFact dev pairs | SciFact dev balanced | SciFact dev E / N / C |',
        '|---|---:|---:|---:|---:|---:|---|',
        ...o.ablation.map(
          (a) =>
            `| ${a.sources.join(' + ')} | ${pct(a.validationSciFactBalanced)} | ${pct(a.snliHeld.accuracy)} | ${pct(a.rteDev.accuracy)} | ${pct(a.sciDev.accuracy)} | ${pct(a.sciDev.balancedAccuracy)} | ${['entailment', 'neutral', 'contradiction'].map((l) => pct(a.sciDev.perClass[l].accuracy)).join(' / ')} |`,
        ),
        '',
        'Balanced = mean of the per-class accuracies (the dev pairs are 65% neutral by construction). SNLI alone',
        'reads an unrelated abstract sentence as a contradiction (SNLI\'s "unrelated" pairs are mostly labelled',
        'contradiction), so SciFact pairs are what teach it neutral. Rule-made contrast twins (below) are what',
        'teach it contradiction on SciFact. The validation column is the only one choices were made on (train data);',
        'the dev columns are reported, not chosen on.',
        '',
      ]
    : [];
  const md = [
    '# NLI head (veracite-nli-use)',
    '',
    `3-way entailment head on frozen USE vectors: features [u, v, |u-v|, u*v] + ${o.weights.lexicalFeatures.length} lexical features, ` +
      `${o.hiddenChoice.chosen ? `one hidden layer of ${o.hiddenChoice.chosen} ReLU units` : 'multinomial logistic regression (linear)'}.`,
    '',
    `- weights: \`${basename(o.path)}\`, sha256 \`${o.sha256}\``,
    `- embedder: ${ctx.embedder.id} (version ${ctx.embedder.version}, ${ctx.embedder.dimension}-d)`,
    `- seed ${ctx.seed}; reproduce with \`${command(ctx)}\``,
    `- sources: ${o.config.sources.join(', ')} (loss weights ${o.config.sources.map((s) => `${s} ${o.config.sourceWeights[s]}`).join(', ')})`,
    `- training time ${o.trainSeconds.toFixed(0)} s including the ablation fits (${embedLine(ctx)}); best epoch ${o.bestEpoch} of ${o.epochsRun}`,
    `- linear vs MLP, SciFact validation balanced accuracy (the choice): linear ${pct(o.hiddenChoice.linear)}${o.hiddenChoice.mlp !== undefined ? `, MLP ${pct(o.hiddenChoice.mlp)}` : ''}`,
    '',
    '## Data',
    '',
    '| set | pairs |',
    '|---|---:|',
    ...Object.entries(o.sizes).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    'RTE "not_entailment" is trained as the label set {neutral, contradiction} (loss -log(P(n) + P(c))).',
    'SciFact pairs: premise = abstract sentence, hypothesis = claim; SUPPORT rationale -> entailment, CONTRADICT -> contradiction, 2 sampled non-rationale sentences per cited abstract -> neutral; plus one pair per (claim, cited abstract) with the rationale sentences joined (no rationale: the 3 sentences most similar to the claim by TF-IDF -> neutral), as the concat verdict rule reads evidence.',
    '',
    '### Contrast twins (src/learn/contrast, training sets only)',
    '',
    'Rule-made minimal edits of supported TRAINING claims (SciFact train SUPPORT rationales, a seeded sample of SNLI training-pool entailment pairs, RTE train entailment pairs): direction of change flipped, negation added or removed, an adjective swapped for its antonym, a number changed (identifiers such as "type 2" or "T-helper 17" left alone) -> contradiction; a name swapped for another of the same shape -> neutral (unsupported). Reverse twins (opt-in, `--reverse-twins`; counted below as scifactReverse_* when used): CONTRADICTED SciFact train claims with their negation toggled -> entailment by the same rationale sentences. RTE twins get RTE\'s 2-way target {neutral, contradiction}. Each twin stays in its original\'s split group.',
    '',
    '| source / rule | count |',
    '|---|---:|',
    ...Object.entries(o.contrastCounts).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    `Source weights were chosen on the validation splits' SciFact pairs (mean balanced accuracy over five split seeds, \`node --import tsx scripts/learn/sweep-nli.ts\`, models/nli-sweep.json): this run's validation SciFact balanced accuracy ${pct(o.validationSciFact.balancedAccuracy)} (${perClassLine(o.validationSciFact)}). The validation claims' SciFact contrast twins (n=${o.validationContrast.n}; forward twins are contradiction or neutral, reverse twins entailment): ${perClassLine(o.validationContrast)}.`,
    '',
    '## Results',
    '',
    `| set | accuracy | per class |`,
    '|---|---:|---|',
    `| validation (10% of training pool, early stopping) | ${pct(o.validation.accuracy)} | ${perClassLine(o.validation)} |`,
    `| SNLI held-out (20% of SNLI test by premise, n=${o.snliHeld.n}) | ${pct(o.snliHeld.accuracy)} | ${perClassLine(o.snliHeld)} |`,
    `| RTE dev, 2-way (entailed iff P(e) >= 0.5, n=${o.rteDev.n}) | ${pct(o.rteDev.accuracy)} | entailment ${pct(o.rteDev.perClass.entailment.accuracy)}, not_entailment ${pct(o.rteDev.perClass.not_entailment.accuracy)} |`,
    `| SciFact dev pairs: rationales + 2 sampled neutral sentences per cited abstract (n=${o.sciDev.n}) | ${pct(o.sciDev.accuracy)} (balanced ${pct(o.sciDev.balancedAccuracy)}) | ${perClassLine(o.sciDev)} |`,
    '',
    '### SNLI held-out confusion',
    '',
    confusionTable(o.snliHeld),
    '',
    '### SciFact dev pairs confusion',
    '',
    confusionTable(o.sciDev),
    '',
    ...ablation,
  ].join('\n');
  writeFileSync(join(outDir, 'nli-head.report.md'), md);
}

export function writeEvidenceReport(outDir: string, o: EvidenceOutcome & { path: string; sha256: string }, ctx: RunContext): void {
  const json = {
    weights: basename(o.path),
    sha256: o.sha256,
    seed: ctx.seed,
    embedder: ctx.embedder,
    config: o.config,
    hidden: o.hiddenChoice,
    sizes: o.sizes,
    threshold: o.weights.threshold,
    bestEpoch: o.bestEpoch,
    epochsRun: o.epochsRun,
    trainSeconds: r4(o.trainSeconds),
    embedSeconds: r4(ctx.embedSeconds),
    texts: ctx.texts,
    embeddedNow: ctx.embeddedNow,
    validation: o.validation,
    dev: o.dev,
  };
  writeFileSync(join(outDir, 'evidence-head.report.json'), `${JSON.stringify(json, null, 2)}\n`);
  const d = o.dev;
  const md = [
    '# Evidence scorer (veracite-evidence-use)',
    '',
    `(claim, sentence) -> P(sentence is a gold SciFact rationale for the claim). Same features as the NLI head; ` +
      `${o.hiddenChoice.chosen ? `one hidden layer of ${o.hiddenChoice.chosen} ReLU units` : 'logistic regression (linear)'}.`,
    '',
    `- weights: \`${basename(o.path)}\`, sha256 \`${o.sha256}\``,
    `- embedder: ${ctx.embedder.id} (version ${ctx.embedder.version})`,
    `- seed ${ctx.seed}; reproduce with \`${command(ctx)}\``,
    `- threshold ${o.weights.threshold?.toFixed(4)} (best F1 on the validation claims' cited-abstract sentences)`,
    `- training time ${o.trainSeconds.toFixed(0)} s (${embedLine(ctx)}); best epoch ${o.bestEpoch} of ${o.epochsRun}`,
    `- linear vs MLP validation AP: linear ${o.hiddenChoice.linear.toFixed(3)}${o.hiddenChoice.mlp !== undefined ? `, MLP ${o.hiddenChoice.mlp.toFixed(3)}` : ''}`,
    '',
    '## Data',
    '',
    'Positives: gold rationale sentences of the evidence abstracts. Negatives: the other sentences of the cited abstracts, plus 10 sentences sampled from 3 random other abstracts per claim.',
    '',
    '| set | count |',
    '|---|---:|',
    ...Object.entries(o.sizes).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    '## SciFact dev (all sentences of the cited abstracts)',
    '',
    '| metric | value |',
    '|---|---:|',
    `| precision @ stored threshold | ${pct(d.atThreshold.precision)} |`,
    `| recall @ stored threshold | ${pct(d.atThreshold.recall)} |`,
    `| F1 @ stored threshold | ${pct(d.atThreshold.f1)} |`,
    `| best possible F1 on dev (threshold ${d.devOracle.threshold.toFixed(3)}; reference only) | ${pct(d.devOracle.f1)} |`,
    `| mean average precision per claim (${d.ranking.claims} claims with rationales) | ${d.ranking.meanAveragePrecision.toFixed(3)} |`,
    `| recall@5 of rationale sentences per claim | ${pct(d.ranking.recallAt5)} |`,
    '',
    `Validation (held-out training claims): F1 ${pct(o.validation.f1)}, P ${pct(o.validation.precision)}, R ${pct(o.validation.recall)}, MAP ${o.validation.ranking.meanAveragePrecision.toFixed(3)}, recall@5 ${pct(o.validation.ranking.recallAt5)}.`,
    '',
  ].join('\n');
  writeFileSync(join(outDir, 'evidence-head.report.md'), md);
}
