/**
 * How far any verdict rule over the offline engine's readings can go on each labelled domain (issue 28): the
 * leave-one-domain-out targets (label accuracy >= the majority class + 10 points) are reachable only where the
 * rule fitted on the domain ITSELF reaches them. Per domain, from the readings `veracite eval domains` caches
 * (tmp/domains/items-<domain>.json; run that first):
 * - the raw head's reading (argmax of the joined evidence's entailment probabilities), nothing fitted;
 * - the shipped rule's form (calibrator, relevance gate, thresholds: learn/verdict/fit-verdict.ts fitRule)
 *   fitted on the domain itself, 5-fold cross-validated by group (claim, premise, article);
 * - the same fitted and scored on all of the domain (in-sample: an upper bound for this rule form).
 * Saves eval-results/verdict-ceiling.json.
 *
 *   node --import tsx scripts/learn/verdict-ceiling.ts [--domains scifact,snli,rte,wice]
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { DomainItem } from '../../src/learn/verdict/domains.js';
import { fitRule } from '../../src/learn/verdict/fit-verdict.js';
import { isRight, type LabelledPairs } from '../../src/learn/verdict/labelled-pairs.js';
import { decideItem, figuresOf, stripCoverage } from '../../src/learn/verdict/lodo.js';
import { Rng, subSeed } from '../../src/util/rng.js';
import { aggregateConfigOf } from '../../src/verify/verdict-calibration.js';
import type { Label } from '../../src/verify/types.js';

const { values } = parseArgs({ options: { domains: { type: 'string', default: 'scifact,snli,rte,wice' }, cache: { type: 'string', default: 'tmp/domains' }, out: { type: 'string', default: 'eval-results/verdict-ceiling.json' }, seed: { type: 'string', default: '13' }, folds: { type: 'string', default: '5' } } });
const seed = Number(values.seed);
const folds = Number(values.folds);
// verify's rules read no coverage (as lodo.ts fits them).
const forFit = (it: DomainItem): LabelledPairs => stripCoverage(it.concat);
const argmax = (it: DomainItem): Label => {
  const p = it.concat.evidence[0];
  if (!p) return 'NOT ENOUGH INFO';
  return p.entailment >= p.contradiction && p.entailment >= p.neutral ? 'SUPPORTS' : p.contradiction >= p.neutral ? 'REFUTES' : 'NOT ENOUGH INFO';
};
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const out: Record<string, unknown> = {};
for (const domain of values.domains!.split(',')) {
  const items = (JSON.parse(readFileSync(`${values.cache}/items-${domain}.json`, 'utf8')) as { items: DomainItem[] }).items;
  const t0 = performance.now();
  const raw = items.filter((it) => isRight(it.concat, argmax(it))).length / items.length;
  // Folds by group, so that a claim's (premise's, article's) items stay on one side.
  const groups = [...new Set(items.map((it) => it.group))];
  const order = new Rng(subSeed(seed, `ceiling-${domain}`)).sample(groups.map((_, i) => i), groups.length);
  const foldOf = new Map(order.map((gi, k) => [groups[gi]!, k % folds]));
  let cvRight = 0;
  for (let f = 0; f < folds; f++) {
    const rule = fitRule(items.filter((it) => foldOf.get(it.group) !== f).map(forFit), `ceiling ${domain} fold ${f}`);
    cvRight += items.filter((it) => foldOf.get(it.group) === f && decideItem(it, aggregateConfigOf(rule)).right).length;
  }
  const all = fitRule(items.map(forFit), `ceiling ${domain}, all`);
  const inSample = figuresOf(items, items.map((it) => decideItem(it, aggregateConfigOf(all))));
  const majority = inSample.majority;
  const row = { items: items.length, majority, target: +(majority.accuracy + 0.1).toFixed(4), rawHead: +raw.toFixed(4), fittedOnItselfCv: +(cvRight / items.length).toFixed(4), fittedOnItselfInSample: inSample.accuracy, recallInSample: inSample.recall };
  out[domain] = row;
  console.log(`${domain} (${items.length} items; majority ${majority.label} ${pct(majority.accuracy)}, target ${pct(row.target)}): raw head ${pct(row.rawHead)}; rule fitted on itself ${pct(row.fittedOnItselfCv)} (${folds}-fold), ${pct(row.fittedOnItselfInSample)} in-sample [${((performance.now() - t0) / 1000).toFixed(0)} s]`);
}
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, JSON.stringify({ task: 'verdict-ceiling', createdAt: new Date().toISOString(), seed, folds, domains: out }, null, 2) + '\n');
console.log(`saved ${values.out}`);
