/**
 * Chooses how `verify` turns evidence from several documents into one verdict (verify/aggregate.ts
 * ACROSS_DOCUMENTS): `pooled` (the rule reads the top-k sentences together) or `by-document` (the rule
 * decides each document's sentences, the most relevant document that takes a side decides) or `by-rank`
 * (the same decisions taken in document retrieval's order instead of by best evidence score). Measured
 * with the verdict rule `verify` ships (models/verdict-calibration.json's bestRule, or --rule).
 *
 * The verdict rule itself was fitted on (claim, cited abstract) pairs of SciFact train; how documents are
 * combined was never fitted, so SciFact TRAIN claims, run in the open setting (retrieval over the whole
 * corpus, as `veracite verify` does), are a fair set to choose on; dev is reported beside it. Claim-level
 * gold: SUPPORTS / REFUTES from the claim's evidence (SciFact's evidence for one claim agrees across its
 * abstracts), NOT ENOUGH INFO for claims without evidence. One verify per claim: the pooled and by-document
 * verdicts are both computed from the same evidence and entailment probabilities.
 *
 *   node --import tsx scripts/learn/verdict-across-documents.ts --index tmp/scifact \
 *     --claims ../shared/data/scifact/claims_train.jsonl --claims ../shared/data/scifact/claims_dev.jsonl
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Veracite } from '../../src/app/veracite.js';
import { readSciFactClaims } from '../../src/eval/run-scifact.js';
import { documentGroups } from '../../src/verify/verifier.js';
import { documentCoverage } from '../../src/verify/coverage.js';
import { aggregateColumbia, aggregateConcat, calibratorInputs, decideAcrossDocuments, type VerdictRule } from '../../src/verify/aggregate.js';
import { counterClaims, counterPairs, splitCounterReads } from '../../src/verify/counter-claims.js';
import { LABELS, type EvidenceSentence, type Label } from '../../src/verify/types.js';

const { values } = parseArgs({ options: { index: { type: 'string', default: 'tmp/scifact' }, claims: { type: 'string', multiple: true }, limit: { type: 'string' }, rule: { type: 'string' }, out: { type: 'string', default: 'eval-results/verdict-across-documents.json' } } });
if (values.rule && values.rule !== 'columbia' && values.rule !== 'concat') throw new Error(`--rule ${values.rule}: expected columbia or concat`);
const files = values.claims ?? ['../shared/data/scifact/claims_train.jsonl', '../shared/data/scifact/claims_dev.jsonl'];

function goldOf(c: { evidence: Record<string, { label: string }[]> }): Label {
  const labels = Object.values(c.evidence).flatMap((sets) => sets.map((s) => s.label));
  if (!labels.length) return 'NOT ENOUGH INFO';
  const support = labels.filter((l) => l === 'SUPPORT').length;
  return support >= labels.length - support ? 'SUPPORTS' : 'REFUTES';
}

interface Tally {
  n: number;
  correct: number;
  confusion: Record<string, Record<string, number>>;
}
const tally = (): Tally => ({ n: 0, correct: 0, confusion: {} });
function add(t: Tally, gold: Label, pred: Label) {
  t.n++;
  if (gold === pred) t.correct++;
  t.confusion[gold] ??= {};
  t.confusion[gold]![pred] = (t.confusion[gold]![pred] ?? 0) + 1;
}
function summary(t: Tally) {
  const recall = Object.fromEntries(LABELS.map((l) => {
    const row = t.confusion[l] ?? {};
    const n = Object.values(row).reduce((a, b) => a + b, 0);
    return [l, n ? (row[l] ?? 0) / n : null];
  }));
  return { n: t.n, accuracy: t.correct / Math.max(t.n, 1), recall, confusion: t.confusion };
}

const vc = await Veracite.open({ index: { dir: values.index! }, ...(values.rule ? { verify: { rule: values.rule as VerdictRule } } : {}) });
const verifier = await vc.verifier();
const cfg = verifier.config.verdict;
const COMBINATIONS = ['pooled', 'by-document', 'by-rank'] as const;
/** Claim-coverage gates measured on by-document (0: none, what verify does). */
const COVERAGE_GATES = [0, 0.25, 0.34, 0.5, 0.6];
type Combination = (typeof COMBINATIONS)[number];

/** One decision per group of evidence, under the verdict rule in use; the gate reads each group's best score. */
async function decideGroups(claim: string, groups: EvidenceSentence[][]): Promise<Label[]> {
  const relevance = (g: EvidenceSentence[]) => Math.max(...g.map((e) => e.score));
  if (cfg.rule === 'concat') {
    // As verify reads the joined sentences (a stated opposite change is not support).
    // And against the claim's counter-claims, when the calibration reads the twin margin (as verify does).
    const counters = cfg.calibrator && calibratorInputs(cfg.calibrator).includes('twinMargin') ? counterClaims(claim) : [];
    const premises = groups.map((g) => g.map((e) => e.text).join(' '));
    const readings = splitCounterReads(await verifier.readEntailment(counterPairs(claim, premises, counters)), premises.length, counters);
    return groups.map((g, i) => aggregateConcat(readings[i]!.claim, cfg, relevance(g), { twinMargin: readings[i]!.margin }).label);
  }
  return groups.map((g) => aggregateColumbia(g.map((e) => e.entailment!), cfg, relevance(g)).label);
}

const results: Record<string, Record<Combination, ReturnType<typeof summary>> & { disagreements: number }> = {};
for (const file of files) {
  let claims = await readSciFactClaims(file);
  if (values.limit) claims = claims.slice(0, Number(values.limit));
  const tallies = Object.fromEntries(COMBINATIONS.map((c) => [c, tally()])) as Record<Combination, Tally>;
  const coverageTallies: Record<number, Tally> = {};
  let disagreements = 0;
  const t0 = performance.now();
  for (const [i, c] of claims.entries()) {
    // verify() sets each sentence's entailment (read alone, under either rule) and keeps the retrieval order.
    const v = await verifier.verify(c.claim);
    const gold = goldOf(c as unknown as { evidence: Record<string, { label: string }[]> });
    const byScore = documentGroups(v.evidence, 'by-document');
    const byRank = documentGroups(v.evidence, 'by-rank', v.documents.map((d) => d.docId));
    let labels: Record<Combination, Label>;
    if (!v.evidence.length) labels = { pooled: v.label, 'by-document': v.label, 'by-rank': v.label };
    else {
      const [pooled, ...perDoc] = await decideGroups(c.claim, [v.evidence, ...byScore]);
      // Each document is decided once; the two combinations differ only in the order they are tried.
      const labelOf = new Map(byScore.map((g, i) => [g[0]!.docId, perDoc[i]!] as const));
      const decision = (order: EvidenceSentence[][]) => decideAcrossDocuments(order.map((g) => ({ label: labelOf.get(g[0]!.docId)! })))!.label;
      labels = { pooled: pooled!, 'by-document': decision(byScore), 'by-rank': decision(byRank) };
      // What a claim-coverage gate would do to by-document: a document covering less than c of the
      // claim's subject words cannot decide (it can only move a decision to another document or to NEI).
      const docs = await vc.store!.getDocuments(byScore.map((g) => g[0]!.docId));
      const coverage = documentCoverage(c.claim, docs);
      for (const gate of COVERAGE_GATES) {
        const gated = decideAcrossDocuments(byScore.map((g) => ({ label: (coverage.get(g[0]!.docId) ?? 1) >= gate ? labelOf.get(g[0]!.docId)! : ('NOT ENOUGH INFO' as Label) })))!.label;
        add((coverageTallies[gate] ??= tally()), gold, gated);
      }
    }
    if (!v.evidence.length) for (const gate of COVERAGE_GATES) add((coverageTallies[gate] ??= tally()), gold, v.label);
    for (const comb of COMBINATIONS) add(tallies[comb], gold, labels[comb]);
    if (labels['by-document'] !== labels.pooled) disagreements++;
    if ((i + 1) % 50 === 0 || i + 1 === claims.length) {
      const s = (performance.now() - t0) / 1000;
      process.stderr.write(`${file}: ${i + 1}/${claims.length} claims, ${((i + 1) / s).toFixed(1)}/s, ETA ${((claims.length - i - 1) / ((i + 1) / s)).toFixed(0)} s; accuracy ${COMBINATIONS.map((k) => `${k} ${(tallies[k].correct / tallies[k].n).toFixed(3)}`).join(', ')}\n`);
    }
  }
  const coverageGate = Object.fromEntries(COVERAGE_GATES.map((g) => [String(g), summary(coverageTallies[g] ?? tally())]));
  const r = { ...(Object.fromEntries(COMBINATIONS.map((k) => [k, summary(tallies[k])])) as Record<Combination, ReturnType<typeof summary>>), disagreements, coverageGate };
  results[file] = r;
  console.log(`${file}: ${claims.length} claims, rule ${cfg.rule}; claim-level accuracy ${COMBINATIONS.map((k) => `${k} ${r[k].accuracy.toFixed(3)}`).join(', ')} (pooled and by-document differ on ${disagreements})`);
  for (const k of COMBINATIONS) console.log(`  ${k}: recall ${LABELS.map((l) => `${l} ${r[k].recall[l] === null ? '-' : (r[k].recall[l] as number).toFixed(3)}`).join(', ')}`);
  for (const g of COVERAGE_GATES) console.log(`  by-document, claim coverage >= ${g} to decide: accuracy ${coverageGate[String(g)]!.accuracy.toFixed(3)}; recall ${LABELS.map((l) => `${l} ${(coverageGate[String(g)]!.recall[l] as number | null)?.toFixed(3) ?? '-'}`).join(', ')}`);
}
await writeFile(values.out!, JSON.stringify({ results, rule: cfg.rule, provenance: await verifier.provenance(), command: `node --import tsx scripts/learn/verdict-across-documents.ts ${process.argv.slice(2).join(' ')}`, createdAt: new Date().toISOString() }, null, 2) + '\n');
await vc.close();
console.log(`saved ${values.out}`);
