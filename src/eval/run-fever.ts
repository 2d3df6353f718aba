/**
 * FEVER evaluation of the verifier: claims from a FEVER-format file, evidence from an index built over
 * FEVER wiki-pages (page id = document id, line number = sentence index), scored with the official
 * scorer (fever-score.ts). Predictions can be written in the official submission format.
 */
import type { Verifier } from '../verify/verifier.js';
import { ProblemList, readJsonRecords } from './data-problems.js';
import { datasetName } from './dataset-name.js';
import type { DocIdLookup } from './doc-ids.js';
import { feverScore, NEI, type FeverGold, type FeverPrediction, type FeverScoreResult, type GoldSentence } from './fever-score.js';
import { ACCEPTED_VERDICTS, acceptedHint, unknownLabel, verdictLabel, type Verdict } from './label-aliases.js';

export interface FeverClaim extends FeverGold {
  id: number;
  claim: string;
}

/** A FEVER-shaped claims file, checked, labels in FEVER's spelling. */
export interface FeverData {
  /** `--name`, else the file name ("paper_dev"). */
  name: string;
  path: string;
  claims: FeverClaim[];
  labelCounts: Record<Verdict, number>;
  /** Labels written in another spelling (SUPPORTED, REFUTE, NEI...) and mapped. */
  relabelled: number;
  /**
   * With `docIds`: gold evidence pages (of SUPPORTS / REFUTES claims) that are not in the index. A FEVER
   * index is often a subset of the 5.4M pages, so this is reported, not an error; claims whose every gold
   * group names a missing page cannot be strictly correct (`claimsWithoutIndexedEvidence`).
   */
  evidencePages?: { referenced: number; missing: string[]; claimsWithoutIndexedEvidence: number };
}

export interface ReadFeverOptions {
  name?: string;
  /** First n records only. */
  limit?: number;
  docIds?: DocIdLookup;
}

const isGoldSentence = (e: unknown): e is GoldSentence =>
  Array.isArray(e) &&
  e.length === 4 &&
  (e[0] === null || typeof e[0] === 'number') &&
  (e[1] === null || typeof e[1] === 'number') &&
  (e[2] === null || typeof e[2] === 'string') &&
  (e[3] === null || Number.isInteger(e[3]));

/**
 * Reads and checks a FEVER-shaped claims file (`id`, `claim`, `label`, `evidence: [[[annotation, evidence,
 * page, line]]]`) before anything runs: every unknown label, malformed evidence and duplicated id is listed
 * in one DataProblemsError with file:line. Label aliases are mapped (SUPPORTED -> SUPPORTS, REFUTE /
 * CONTRADICT -> REFUTES, NEI / NOT_ENOUGH_INFO -> NOT ENOUGH INFO).
 */
export async function readFeverData(path: string, opts: ReadFeverOptions = {}): Promise<FeverData> {
  const problems = new ProblemList();
  const records = await readJsonRecords(path, problems, opts.limit);
  const claims: FeverClaim[] = [];
  const ids = new Map<string, number>();
  const labelCounts: Record<Verdict, number> = { SUPPORTS: 0, REFUTES: 0, 'NOT ENOUGH INFO': 0 };
  let relabelled = 0;
  for (const { file, line, value: r } of records) {
    const before = problems.size;
    const bad = (field: string | undefined, problem: string) => problems.add(file, line, field, problem);
    const id = r['id'];
    if (!(typeof id === 'number' && Number.isSafeInteger(id)) && !(typeof id === 'string' && id.trim())) bad('id', 'missing, or not an integer / non-empty string');
    else if (ids.has(String(id))) bad('id', `duplicate claim id ${id} (first on line ${ids.get(String(id))})`);
    else ids.set(String(id), line);
    if (typeof r['claim'] !== 'string' || !r['claim'].trim()) bad('claim', 'missing or empty');
    const label = verdictLabel(r['label']);
    if (!label) bad('label', unknownLabel(r['label']));
    const evidence = r['evidence'];
    if (!Array.isArray(evidence)) bad('evidence', 'missing or not a list of evidence groups (gold evidence is needed to score)');
    else
      evidence.forEach((group: unknown, g) => {
        if (!Array.isArray(group)) return bad(`evidence[${g}]`, 'not a list of [annotation id, evidence id, page, line]');
        group.forEach((e: unknown, j) => {
          if (!isGoldSentence(e)) bad(`evidence[${g}][${j}]`, `not [annotation id, evidence id, page, line]: ${JSON.stringify(e)}`);
        });
      });
    if (problems.size > before) continue;
    if (label !== r['label']) relabelled++;
    labelCounts[label!]++;
    claims.push({ ...(r as object), id: id as number, claim: r['claim'] as string, label: label!, evidence: evidence as GoldSentence[][] });
  }
  const name = datasetName(path, opts.name);
  problems.throwIfAny(`FEVER claims "${name}" (${path})`, acceptedHint(ACCEPTED_VERDICTS));
  const data: FeverData = { name, path, claims, labelCounts, relabelled };
  if (opts.docIds) data.evidencePages = await evidencePagesInIndex(claims, opts.docIds);
  return data;
}

async function evidencePagesInIndex(claims: readonly FeverClaim[], lookup: DocIdLookup): Promise<NonNullable<FeverData['evidencePages']>> {
  const verifiable = claims.filter((c) => c.label !== NEI);
  const pages = new Set<string>();
  for (const c of verifiable) for (const g of c.evidence) for (const e of g) if (e[2] !== null) pages.add(e[2]);
  const present = await lookup([...pages]);
  const groupIndexed = (g: GoldSentence[]) => g.every((e) => e[2] !== null && present.has(e[2]));
  return {
    referenced: pages.size,
    missing: [...pages].filter((p) => !present.has(p)).sort(),
    claimsWithoutIndexedEvidence: verifiable.filter((c) => !c.evidence.some(groupIndexed)).length,
  };
}

/** The claims of a FEVER-shaped file, checked (see readFeverData). */
export async function readFeverClaims(path: string, limit?: number): Promise<FeverClaim[]> {
  return (await readFeverData(path, limit !== undefined ? { limit } : {})).claims;
}

export interface FeverEvalResult {
  score: FeverScoreResult;
  /**
   * Always predicting the most frequent gold label with no evidence, scored by the same official scorer:
   * what the FEVER score and label accuracy must beat on this data.
   */
  majorityBaseline: { label: string; score: FeverScoreResult };
  predictions: (FeverPrediction & { id: number })[];
  claimsPerSecond: number;
}

export async function runFeverEval(verifier: Pick<Verifier, 'verify'>, claims: FeverClaim[], onProgress?: (done: number, total: number) => void): Promise<FeverEvalResult> {
  const predictions: (FeverPrediction & { id: number })[] = [];
  const started = performance.now();
  for (const [i, c] of claims.entries()) {
    const v = await verifier.verify(c.claim);
    predictions.push({
      id: c.id,
      predicted_label: v.label,
      predicted_evidence: v.evidence.map((e) => [e.docId, e.sentenceIndex] as [string, number]),
    });
    onProgress?.(i + 1, claims.length);
  }
  const seconds = (performance.now() - started) / 1000;
  return { score: feverScore(predictions, claims), majorityBaseline: majorityBaseline(claims), predictions, claimsPerSecond: claims.length / seconds };
}

export function majorityBaseline(claims: readonly FeverClaim[]): FeverEvalResult['majorityBaseline'] {
  const counts = new Map<string, number>();
  for (const c of claims) counts.set(c.label, (counts.get(c.label) ?? 0) + 1);
  const label = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? NEI;
  return { label, score: feverScore(claims.map(() => ({ predicted_label: label, predicted_evidence: [] })), claims) };
}
