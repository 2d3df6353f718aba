/**
 * SciFact claims with their cited abstracts in WiCE's shape (claim, label, evidence = the abstract's title and
 * sentences), so the audit's support judgement (citation-band-rows.ts) can be read on a second domain: a
 * scientific claim citing a paper, as the sample audit's sentences do, where WiCE is Wikipedia citing web pages.
 * SUPPORT -> supported; CONTRADICT, and a cited abstract that neither supports nor refutes (NEI) ->
 * not_supported (the citation fails verification). One row per (claim, cited abstract).
 *
 * --split selection: the 15% of SciFact train claims scripts/model/build_data.py holds out of the verifier's
 * training for model selection (hash of "scifact-" + id < 0.15): never the sample audit, the citation sets or
 * SciFact dev, which RESULTS reports.
 *
 *   node --import tsx scripts/learn/scifact-as-citations.ts --out tmp/scifact-selection-citations.jsonl
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { scifactSelection } from './training-split.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../shared/data/scifact' }, split: { type: 'string', default: 'selection' }, out: { type: 'string', default: 'tmp/scifact-selection-citations.jsonl' } } });
if (values.split !== 'selection') throw new Error(`--split ${values.split}: only "selection" (the held-out part of SciFact train) is made`);

const jsonl = async <T>(p: string): Promise<T[]> => (await readFile(p, 'utf8')).split('\n').filter((l) => l.trim()).map((l, i) => {
  try {
    return JSON.parse(l) as T;
  } catch (e) {
    throw new Error(`${p}:${i + 1}: not JSON (${(e as Error).message})`);
  }
});
interface Doc { doc_id: number; title: string; abstract: string[] }
interface Claim { id: number; claim: string; evidence: Record<string, { label: string }[]>; cited_doc_ids: number[] }
const corpus = new Map((await jsonl<Doc>(`${values.data}/corpus.jsonl`)).map((d) => [d.doc_id, d] as const));
const claims = (await jsonl<Claim>(`${values.data}/claims_train.jsonl`)).filter((c) => scifactSelection(c.id));
const rows: string[] = [];
const counts: Record<string, number> = {};
for (const c of claims) {
  for (const did of c.cited_doc_ids) {
    const d = corpus.get(did);
    if (!d) throw new Error(`${values.data}/claims_train.jsonl: claim ${c.id} cites doc ${did}, not in corpus.jsonl`);
    const sets = c.evidence[String(did)];
    const label = sets?.length ? (sets[0]!.label === 'SUPPORT' ? 'supported' : 'not_supported') : 'not_supported';
    counts[label] = (counts[label] ?? 0) + 1;
    rows.push(JSON.stringify({ label, claim: c.claim, evidence: [`(meta data) TITLE: ${d.title}`, ...d.abstract], meta: { id: `scifact-${c.id}-${did}`, claim_title: `scifact-${c.id}`, source: sets?.length ? sets[0]!.label : 'NEI' } }));
  }
}
await mkdir(dirname(values.out!), { recursive: true });
await writeFile(values.out!, rows.join('\n') + '\n');
console.log(`wrote ${values.out}: ${rows.length} citations of ${claims.length} claims (${JSON.stringify(counts)})`);
