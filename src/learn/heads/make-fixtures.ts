/**
 * Regenerates the committed test fixtures of the trained heads (src/models/trained/fixtures/):
 *   snli-heldout.jsonl      60 SNLI pairs (20 per class) from the seed-13 HELD-OUT split, never trained on
 *   scifact-evidence.json   8 SciFact DEV claims (never trained on): one gold rationale sentence, the other
 *                           sentences of its abstract, and 10 sentences from random uncited abstracts
 * Run: node --import tsx src/learn/heads/make-fixtures.ts [/work/shared/data]   (deterministic)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareData } from './train.js';
import { dataPaths, loadSciFactClaims, loadSciFactCorpus, NLI_CLASS_NAMES } from './data.js';
import { Rng } from '../../util/rng.js';
import { packageRoot } from '../../util/package-root.js';

export const FIXTURE_DIR = join(packageRoot(), 'src', 'models', 'trained', 'fixtures');
const SEED = 13;

export interface EvidenceFixture {
  claimId: number;
  claim: string;
  docId: number;
  rationale: string;
  otherSentences: string[];
  unrelated: string[];
}

function main(root: string): void {
  mkdirSync(FIXTURE_DIR, { recursive: true });
  const rng = new Rng(SEED);
  const held = prepareData(root, SEED).nli.snliHeld;
  const lines: string[] = [];
  for (let k = 0; k < 3; k++) {
    const ofClass = held.filter((p) => p.y === 1 << k);
    for (const p of rng.sample(ofClass, 20)) lines.push(JSON.stringify({ premise: p.premise, hypothesis: p.hypothesis, label: NLI_CLASS_NAMES[k] }));
  }
  writeFileSync(join(FIXTURE_DIR, 'snli-heldout.jsonl'), `${lines.join('\n')}\n`);

  const paths = dataPaths(root);
  const corpus = loadSciFactCorpus(paths.sciCorpus);
  const ids = [...corpus.keys()].sort((a, b) => a - b);
  const claims = loadSciFactClaims(paths.sciDev).filter((c) => Object.keys(c.evidence).length > 0);
  const out: EvidenceFixture[] = [];
  for (const c of rng.sample(claims, 8).sort((a, b) => a.id - b.id)) {
    const docId = Number(Object.keys(c.evidence).sort()[0]);
    const doc = corpus.get(docId)!;
    const first = c.evidence[String(docId)][0].sentences[0];
    const rationaleIdx = new Set(c.evidence[String(docId)].flatMap((s) => s.sentences));
    const pool: string[] = [];
    while (pool.length < 40) {
      const id = ids[rng.int(ids.length)];
      if (!c.cited_doc_ids.includes(id)) pool.push(...corpus.get(id)!.abstract);
    }
    out.push({
      claimId: c.id,
      claim: c.claim,
      docId,
      rationale: doc.abstract[first],
      otherSentences: doc.abstract.filter((_, i) => !rationaleIdx.has(i)),
      unrelated: rng.sample(pool, 10),
    });
  }
  writeFileSync(join(FIXTURE_DIR, 'scifact-evidence.json'), `${JSON.stringify({ source: 'SciFact claims_dev.jsonl + corpus.jsonl (CC BY 4.0 / ODC-By 1.0)', seed: SEED, claims: out }, null, 1)}\n`);
  console.log(`wrote ${lines.length} SNLI pairs and ${out.length} SciFact claims to ${FIXTURE_DIR}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv[2] ?? '/work/shared/data');
