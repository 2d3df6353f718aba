/**
 * Per-citation human labels for `veracite eval audit`: an editor's judgement of whether each cited source
 * supports its claim. One JSON object per line:
 *
 *   {"citation": 3, "label": "not_supported"}                  // 1-based position, as the audit prints it (#3)
 *   {"citation": "Bodmin#2", "label": "partially_supported"}   // or the citation's id (report `id`)
 *   {"citation": 5, "label": "supported", "claim": "...", "note": "..."}   // optional fields
 *
 * `label`: supported | partially_supported | not_supported (usual spellings accepted, label-aliases.ts).
 * `claim`, when given, must match the citation's claim (its sentence or its prefix): a guard against a
 * label file written for another revision of the article, whose positions have shifted. `note` is kept.
 *
 * Everything is checked before the audit runs, and every problem is listed at once: lines that are not
 * JSON objects, unknown labels, citations the article does not have, a citation labelled twice, a claim
 * that does not match, and (unless allowed) citations without a label.
 */
import type { AuditCitation } from '../audit/types.js';
import { DataProblemsError, ProblemList, readJsonRecords } from './data-problems.js';
import { ACCEPTED_SUPPORT_LABELS, acceptedHint, supportLabel, unknownLabel, type SupportLabel } from './label-aliases.js';

export interface AuditLabel {
  /** As written: a 1-based position (number) or a citation id (string). */
  citation: number | string;
  label: SupportLabel;
  claim?: string;
  note?: string;
  file: string;
  line: number;
}

/** Read the label file, checking each line on its own (labels, fields); matching comes later. */
export async function readAuditLabels(path: string, problems = new ProblemList()): Promise<AuditLabel[]> {
  const out: AuditLabel[] = [];
  for (const { file, line, value: r } of await readJsonRecords(path, problems)) {
    const before = problems.size;
    const c = r['citation'];
    if (!(typeof c === 'number' && Number.isInteger(c)) && !(typeof c === 'string' && c.trim())) {
      problems.add(file, line, 'citation', 'missing: a 1-based position (number, as the audit prints #3) or the citation id (string)');
    }
    const label = supportLabel(r['label']);
    if (!label) problems.add(file, line, 'label', unknownLabel(r['label']));
    for (const f of ['claim', 'note'] as const) if (r[f] !== undefined && typeof r[f] !== 'string') problems.add(file, line, f, 'must be a string');
    if (problems.size > before) continue;
    out.push({
      citation: typeof c === 'string' ? c.trim() : (c as number),
      label: label!,
      ...(typeof r['claim'] === 'string' ? { claim: r['claim'] } : {}),
      ...(typeof r['note'] === 'string' ? { note: r['note'] } : {}),
      file,
      line,
    });
  }
  return out;
}

export interface MatchedLabels {
  /** `AuditCitation.index` (0-based; the audit prints it + 1) -> label. */
  byIndex: Map<number, AuditLabel>;
  /** 1-based positions of citations without a label (when allowed). */
  unlabelled: number[];
}

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * Labels -> citations of the article, with every problem collected. `unlabelled: 'error'` (default) also
 * lists the citations that have no label; 'skip' leaves them out of the evaluation.
 */
export function matchAuditLabels(
  labels: readonly AuditLabel[],
  citations: readonly AuditCitation[],
  where: { labels: string; article: string },
  opts: { unlabelled?: 'error' | 'skip'; problems?: ProblemList } = {},
): MatchedLabels {
  const problems = opts.problems ?? new ProblemList();
  const byId = new Map(citations.map((c) => [c.id, c]));
  const byPosition = new Map(citations.map((c) => [c.index + 1, c]));
  const byIndex = new Map<number, AuditLabel>();
  for (const l of labels) {
    let c: AuditCitation | undefined;
    if (typeof l.citation === 'number') {
      c = byPosition.get(l.citation);
      if (!c) problems.add(l.file, l.line, 'citation', `the article has no citation #${l.citation} (it has ${citations.length}, numbered 1-${citations.length})`);
    } else {
      c = byId.get(l.citation);
      if (!c) {
        const hint = /^\d+$/.test(l.citation) ? ` (a position is written as a number: ${l.citation})` : '';
        problems.add(l.file, l.line, 'citation', `the article has no citation with id ${JSON.stringify(l.citation)}${hint}`);
      }
    }
    if (!c) continue;
    const i = c.index;
    const other = byIndex.get(i);
    if (other) {
      problems.add(l.file, l.line, 'citation', `citation #${i + 1} is labelled twice (also on line ${other.line})`);
      continue;
    }
    if (l.claim !== undefined) {
      const want = norm(l.claim);
      const texts = [c.claim, c.claimPrefix ?? c.claim].map(norm);
      if (!texts.some((t) => t === want || (want.length >= 10 && (t.includes(want) || want.includes(t))))) {
        problems.add(l.file, l.line, 'claim', `does not match citation #${i + 1}, whose claim is ${JSON.stringify(c.claim)}: is the label file for another revision of the article?`);
      }
    }
    byIndex.set(i, l);
  }
  const unlabelled = citations.filter((c) => !byIndex.has(c.index));
  if ((opts.unlabelled ?? 'error') === 'error') {
    for (const c of unlabelled) {
      problems.add(where.labels, 0, undefined, `citation #${c.index + 1} (${c.id}) of ${where.article} has no label: ${JSON.stringify(c.claim.slice(0, 80))}`);
    }
  }
  return { byIndex, unlabelled: unlabelled.map((c) => c.index + 1) };
}

/** Read + match in one go, throwing one DataProblemsError with everything found. */
export async function loadAuditLabels(
  path: string,
  citations: readonly AuditCitation[],
  article: string,
  opts: { unlabelled?: 'error' | 'skip' } = {},
): Promise<MatchedLabels> {
  const problems = new ProblemList();
  const labels = await readAuditLabels(path, problems);
  const matched = matchAuditLabels(labels, citations, { labels: path, article }, { ...opts, problems });
  if (problems.size) {
    const unlabelledOnly = problems.items.every((p) => p.line === 0);
    throw new DataProblemsError(
      `citation labels ${path}`,
      problems.items,
      [acceptedHint(ACCEPTED_SUPPORT_LABELS), unlabelledOnly ? 'Label every citation, or pass the option to skip unlabelled ones.' : ''].filter(Boolean).join('\n'),
    );
  }
  if (matched.byIndex.size === 0) throw new Error(`${path}: no labels: one JSON object per line, {"citation": <1-based position or id>, "label": "supported|partially_supported|not_supported"}`);
  return matched;
}
