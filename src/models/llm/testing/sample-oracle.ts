/**
 * Gold readings for the fake judge (fake-servers.ts) from the shipped calibration samples: the SNLI
 * sample's labels by (premise, hypothesis), and each SciFact sample claim's gold rationale sentences
 * (SUPPORT / CONTRADICT) wherever they appear in the document the judge is shown. It stands in for a good
 * judge so that calibration's sanity gates pass and the flow can be tested; its figures mean nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeJudgeOptions, FakeLabel } from './fake-servers.js';

const NLI: Record<string, FakeLabel> = { entailment: 'SUPPORTED', contradiction: 'CONTRADICTED', neutral: 'NOT_ENOUGH_INFO' };

const lines = async (path: string) => (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim());

export async function sampleOracle(samples = 'data/samples/calibration'): Promise<Pick<FakeJudgeOptions, 'gold' | 'oracle'>> {
  const gold = new Map<string, FakeLabel>();
  for (const line of await lines(join(samples, 'nli', 'snli_dev.jsonl'))) {
    const p = JSON.parse(line) as { premise: string; hypothesis: string; label: string };
    if (NLI[p.label]) gold.set(`${p.premise}\n${p.hypothesis}`, NLI[p.label]!);
  }
  const corpus = new Map<string, string[]>();
  for (const line of await lines(join(samples, 'scifact', 'corpus.jsonl'))) {
    const d = JSON.parse(line) as { doc_id: number; abstract: string[] };
    corpus.set(String(d.doc_id), d.abstract);
  }
  const rationales = new Map<string, { sentence: string; label: FakeLabel }[]>();
  for (const file of ['claims_train', 'claims_dev']) {
    for (const line of await lines(join(samples, 'scifact', `${file}.jsonl`))) {
      const c = JSON.parse(line) as { claim: string; evidence: Record<string, { sentences: number[]; label: string }[]> };
      const list = Object.entries(c.evidence).flatMap(([doc, sets]) => sets.flatMap((e) => e.sentences.map((i) => ({ sentence: corpus.get(doc)?.[i] ?? '', label: (e.label === 'SUPPORT' ? 'SUPPORTED' : 'CONTRADICTED') as FakeLabel }))));
      rationales.set(c.claim, list.filter((r) => r.sentence));
    }
  }
  const oracle = (document: string, claim: string): FakeLabel | undefined => {
    const list = rationales.get(claim);
    if (!list) return undefined;
    return list.find((r) => document.includes(r.sentence))?.label ?? 'NOT_ENOUGH_INFO';
  };
  return { gold, oracle };
}
