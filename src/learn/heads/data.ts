/**
 * Training / evaluation data for the heads, read from the shared data folder (SNLI, GLUE RTE, SciFact).
 * Every sample or split is drawn from a seeded stream, so the same seed selects the same pairs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tfidfRank } from '../../text/tfidf.js';
import { Rng, subSeed } from '../../util/rng.js';
import { label } from './softmax-regression.js';
import { readJsonlFileSync } from '../../util/jsonl-file.js';

export const ENT = 0;
export const NEU = 1;
export const CON = 2;
export const NLI_CLASS_NAMES = ['entailment', 'neutral', 'contradiction'];

export interface LabelledPair {
  premise: string;
  hypothesis: string;
  /** Bitmask of allowed classes (see softmax-regression.ts). */
  y: number;
  /** Groups pairs that must stay on the same side of a split (same SNLI premise, same claim). */
  group: string;
  /** Where a pair that is not read from a data set came from ('contrast': a rule-made twin); its loss weight follows it. */
  source?: 'contrast' | 'sick';
}


const NLI_INDEX: Record<string, number> = { entailment: ENT, neutral: NEU, contradiction: CON };

export function loadSnli(path: string): LabelledPair[] {
  const out: LabelledPair[] = [];
  for (const r of readJsonlFileSync<{ premise: string; hypothesis: string; label: string }>(path)) {
    const k = NLI_INDEX[r.label];
    if (k === undefined) continue; // SNLI's "-" (no gold label)
    out.push({ premise: r.premise, hypothesis: r.hypothesis, y: label(k), group: `snli:${r.premise}` });
  }
  return out;
}

/**
 * GLUE RTE is 2-way. "not_entailment" mixes contradictions and unrelated-but-compatible pairs, so it is
 * the label SET {neutral, contradiction}: the head learns "not entailed" without being told which.
 */
export function loadRte(path: string): LabelledPair[] {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim());
  const out: LabelledPair[] = [];
  for (const line of lines.slice(1)) {
    const cols = line.split('\t');
    if (cols.length < 4) continue;
    const [index, s1, s2, lab] = [cols[0], cols[1], cols[2], cols[cols.length - 1]];
    const y = lab === 'entailment' ? label(ENT) : lab === 'not_entailment' ? label(NEU) | label(CON) : 0;
    if (!y) continue;
    out.push({ premise: s1, hypothesis: s2, y, group: `rte:${index}` });
  }
  return out;
}

export interface SciFactClaim {
  id: number;
  claim: string;
  evidence: Record<string, { sentences: number[]; label: 'SUPPORT' | 'CONTRADICT' }[]>;
  cited_doc_ids: number[];
}

export interface SciFactDoc {
  doc_id: number;
  title: string;
  abstract: string[];
}

export function loadSciFactClaims(path: string): SciFactClaim[] {
  return readJsonlFileSync<SciFactClaim>(path);
}

export function loadSciFactCorpus(path: string): Map<number, SciFactDoc> {
  return new Map(readJsonlFileSync<SciFactDoc>(path).map((d) => [d.doc_id, d]));
}

/** Sentence index -> SciFact label, for one claim and one evidence abstract. */
function rationaleLabels(c: SciFactClaim, docId: number): Map<number, 'SUPPORT' | 'CONTRADICT'> {
  const out = new Map<number, 'SUPPORT' | 'CONTRADICT'>();
  for (const set of c.evidence[String(docId)] ?? []) for (const s of set.sentences) out.set(s, set.label);
  return out;
}

/**
 * SciFact as NLI pairs (premise = abstract sentence, hypothesis = claim): rationale sentences are
 * entailment (SUPPORT) or contradiction (CONTRADICT); `neutralPerDoc` other sentences of each cited
 * abstract (seeded sample) are neutral. Claims without evidence contribute only neutral pairs.
 */
export function sciFactNliPairs(claims: SciFactClaim[], corpus: Map<number, SciFactDoc>, seed: number, neutralPerDoc = 2): LabelledPair[] {
  const rng = new Rng(subSeed(seed, 'scifact-nli'));
  const out: LabelledPair[] = [];
  for (const c of claims) {
    for (const docId of c.cited_doc_ids) {
      const doc = corpus.get(docId);
      if (!doc) continue;
      const labels = rationaleLabels(c, docId);
      for (const [i, l] of [...labels].sort((a, b) => a[0] - b[0])) {
        if (doc.abstract[i] === undefined) continue;
        out.push({ premise: doc.abstract[i], hypothesis: c.claim, y: label(l === 'SUPPORT' ? ENT : CON), group: `scifact:${c.id}` });
      }
      const others = doc.abstract.map((_, i) => i).filter((i) => !labels.has(i));
      for (const i of rng.sample(others, neutralPerDoc)) {
        out.push({ premise: doc.abstract[i], hypothesis: c.claim, y: label(NEU), group: `scifact:${c.id}` });
      }
    }
  }
  return out;
}

/**
 * SciFact as the verdict rule sees it (concat rule): premise = the abstract's gold rationale sentences
 * joined (SUPPORT -> entailment, CONTRADICT -> contradiction); for a cited abstract without evidence, its
 * `neutralTop` sentences most similar to the claim by TF-IDF (what evidence selection would pick) ->
 * neutral. One pair per (claim, cited abstract).
 */
export function sciFactConcatPairs(claims: SciFactClaim[], corpus: Map<number, SciFactDoc>, neutralTop = 3): LabelledPair[] {
  const out: LabelledPair[] = [];
  for (const c of claims) {
    for (const docId of c.cited_doc_ids) {
      const doc = corpus.get(docId);
      if (!doc) continue;
      const labels = rationaleLabels(c, docId);
      const group = `scifact:${c.id}`;
      if (labels.size) {
        const idx = [...labels.keys()].sort((a, b) => a - b).filter((i) => doc.abstract[i] !== undefined);
        const kind = labels.get(idx[0]!) === 'SUPPORT' ? ENT : CON;
        if (idx.length) out.push({ premise: idx.map((i) => doc.abstract[i]).join(' '), hypothesis: c.claim, y: label(kind), group });
      } else {
        const sims = tfidfRank(c.claim, doc.abstract);
        const top = doc.abstract.map((_, i) => i).sort((a, b) => sims[b]! - sims[a]! || a - b).slice(0, neutralTop).sort((a, b) => a - b);
        if (top.length) out.push({ premise: top.map((i) => doc.abstract[i]).join(' '), hypothesis: c.claim, y: label(NEU), group });
      }
    }
  }
  return out;
}

/**
 * SICK (CC BY-NC-SA 3.0: opt-in only, never in the shipped weights). Tab-separated with a header:
 * pair_ID, sentence_A, sentence_B, entailment_label, ..., SemEval_set; only the TRAIN part is read.
 */
export function loadSick(path: string): LabelledPair[] {
  // The distributed SICK.txt has CRLF line ends.
  const lines = readFileSync(path, 'utf8').split(/\r?\n/).filter((l) => l.trim());
  const head = lines[0]!.split('\t');
  const col = (name: string) => {
    const i = head.indexOf(name);
    if (i < 0) throw new Error(`${path}:1: column "${name}" missing (expected the SICK.txt header)`);
    return i;
  };
  const [a, b, lab, set] = [col('sentence_A'), col('sentence_B'), col('entailment_label'), col('SemEval_set')];
  const map: Record<string, number> = { ENTAILMENT: ENT, NEUTRAL: NEU, CONTRADICTION: CON };
  const out: LabelledPair[] = [];
  lines.slice(1).forEach((line, i) => {
    const f = line.split('\t');
    if (f[set] !== 'TRAIN') return;
    const k = map[f[lab] ?? ''];
    if (k === undefined) throw new Error(`${path}:${i + 2}: entailment_label "${f[lab]}" is not ENTAILMENT, NEUTRAL or CONTRADICTION`);
    out.push({ premise: f[a]!, hypothesis: f[b]!, y: label(k), group: `sick:${f[a]}`, source: 'sick' });
  });
  return out;
}

export interface EvidencePair {
  claim: string;
  sentence: string;
  evidence: boolean;
  /** Claim id: rankings and splits are per claim. */
  group: string;
  /** True for sentences of the claim's cited abstracts (the ranking metrics use only these). */
  cited: boolean;
}

/**
 * Evidence-scorer pairs: every sentence of each cited abstract (positives = gold rationale sentences of
 * the evidence abstracts), plus `randomSentences` sentences from `randomDocs` other abstracts as easy
 * negatives, so the scorer also learns to reject off-topic text.
 */
export function evidencePairs(
  claims: SciFactClaim[],
  corpus: Map<number, SciFactDoc>,
  seed: number,
  opts: { randomDocs?: number; randomSentences?: number } = {},
): EvidencePair[] {
  const rng = new Rng(subSeed(seed, 'scifact-evidence'));
  const docIds = [...corpus.keys()].sort((a, b) => a - b);
  const out: EvidencePair[] = [];
  for (const c of claims) {
    const group = `scifact:${c.id}`;
    for (const docId of c.cited_doc_ids) {
      const doc = corpus.get(docId);
      if (!doc) continue;
      const labels = rationaleLabels(c, docId);
      doc.abstract.forEach((s, i) => out.push({ claim: c.claim, sentence: s, evidence: labels.has(i), group, cited: true }));
    }
    const randomDocs = opts.randomDocs ?? 0;
    if (!randomDocs) continue;
    const cited = new Set(c.cited_doc_ids);
    const pool: string[] = [];
    for (let k = 0; k < randomDocs; k++) {
      let id = docIds[rng.int(docIds.length)];
      while (cited.has(id)) id = docIds[rng.int(docIds.length)];
      pool.push(...corpus.get(id)!.abstract);
    }
    for (const s of rng.sample(pool, opts.randomSentences ?? pool.length)) out.push({ claim: c.claim, sentence: s, evidence: false, group, cited: false });
  }
  return out;
}

/** Seeded split by group: about `fraction` of the groups (and so of the pairs) go to the second part. */
export function splitByGroup<T extends { group: string }>(items: T[], fraction: number, seed: number, tag: string): [T[], T[]] {
  const groups = [...new Set(items.map((i) => i.group))].sort();
  const held = new Set(new Rng(subSeed(seed, tag)).sample(groups, Math.round(groups.length * fraction)));
  return [items.filter((i) => !held.has(i.group)), items.filter((i) => held.has(i.group))];
}

export interface DataPaths {
  snliDev: string;
  snliTest: string;
  rteTrain: string;
  rteDev: string;
  sciTrain: string;
  sciDev: string;
  sciCorpus: string;
  sick: string;
}

export function dataPaths(root: string): DataPaths {
  return {
    snliDev: join(root, 'nli/snli/snli_dev.jsonl'),
    snliTest: join(root, 'nli/snli/snli_test.jsonl'),
    rteTrain: join(root, 'nli/rte/train.tsv'),
    rteDev: join(root, 'nli/rte/dev.tsv'),
    sciTrain: join(root, 'scifact/claims_train.jsonl'),
    sciDev: join(root, 'scifact/claims_dev.jsonl'),
    sciCorpus: join(root, 'scifact/corpus.jsonl'),
    sick: join(root, 'nli/sick/SICK.txt'),
  };
}
