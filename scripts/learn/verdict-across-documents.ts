/**
 * Chooses how `verify` turns evidence from several documents into one verdict (verify/aggregate.ts
 * ACROSS_DOCUMENTS): `pooled` (the rule reads the top-k sentences together) or `by-document` (the rule
 * decides each document's sentences, the most relevant document that takes a side decides).
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
import { columbiaVerdict } from '../../src/verify/verifier.js';
import { LABELS, type Label } from '../../src/verify/types.js';

const { values } = parseArgs({ options: { index: { type: 'string', default: 'tmp/scifact' }, claims: { type: 'string', multiple: true }, limit: { type: 'string' }, out: { type: 'string', default: 'eval-results/verdict-across-documents.json' } } });
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

const vc = await Veracite.open({ index: { dir: values.index! }, verify: { rule: 'columbia' } });
const verifier = await vc.verifier();
const cfg = verifier.config.verdict;
const results: Record<string, { pooled: ReturnType<typeof summary>; byDocument: ReturnType<typeof summary>; disagreements: number }> = {};
for (const file of files) {
  let claims = await readSciFactClaims(file);
  if (values.limit) claims = claims.slice(0, Number(values.limit));
  const pooled = tally();
  const byDoc = tally();
  let disagreements = 0;
  const t0 = performance.now();
  for (const [i, c] of claims.entries()) {
    const v = await verifier.verify(c.claim);
    const gold = goldOf(c as unknown as { evidence: Record<string, { label: string }[]> });
    // Both combinations from the same evidence and entailment probabilities (whichever is the default).
    const p = v.evidence.length ? columbiaVerdict(v.evidence, { ...cfg, across: 'pooled' }).label : v.label;
    const d = v.evidence.length ? columbiaVerdict(v.evidence, { ...cfg, across: 'by-document' }).label : v.label;
    add(pooled, gold, p);
    add(byDoc, gold, d);
    if (d !== p) disagreements++;
    if ((i + 1) % 50 === 0 || i + 1 === claims.length) {
      const s = (performance.now() - t0) / 1000;
      process.stderr.write(`${file}: ${i + 1}/${claims.length} claims, ${((i + 1) / s).toFixed(1)}/s, ETA ${((claims.length - i - 1) / ((i + 1) / s)).toFixed(0)} s; accuracy pooled ${(pooled.correct / pooled.n).toFixed(3)}, by-document ${(byDoc.correct / byDoc.n).toFixed(3)}\n`);
    }
  }
  results[file] = { pooled: summary(pooled), byDocument: summary(byDoc), disagreements };
  const r = results[file]!;
  console.log(`${file}: ${r.pooled.n} claims; claim-level accuracy pooled ${r.pooled.accuracy.toFixed(3)}, by-document ${r.byDocument.accuracy.toFixed(3)} (${disagreements} verdicts differ)`);
  for (const [name, x] of [['pooled', r.pooled], ['by-document', r.byDocument]] as const) console.log(`  ${name}: recall ${LABELS.map((l) => `${l} ${x.recall[l] === null ? '-' : (x.recall[l] as number).toFixed(3)}`).join(', ')}`);
}
await writeFile(values.out!, JSON.stringify({ results, rule: 'columbia', provenance: await verifier.provenance(), command: `node --import tsx scripts/learn/verdict-across-documents.ts ${process.argv.slice(2).join(' ')}`, createdAt: new Date().toISOString() }, null, 2) + '\n');
await vc.close();
console.log(`saved ${values.out}`);
