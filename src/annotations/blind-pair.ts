/**
 * Blind comparison pairs (SIDE's demo): a claim with its existing source and the audit's top suggestion,
 * shown as A and B in random order. The pair id carries the job, the citation and the order, so an
 * answer can be recorded after a restart without server-side pending state; the page itself only ever
 * shows "A" and "B". (The id is encoded, not encrypted: blind for the annotator's eyes, not against
 * someone decoding it.)
 */
import { randomInt } from 'node:crypto';
import type { CitationView, SourceView } from '../audit/citation-view.js';
import type { AnnotationSide, Choice, Role } from './types.js';

export interface PairRef {
  jobId: string;
  citationId: string;
  /** Which suggestion (0 = the top one). */
  suggestion: number;
  /** Role shown as A. */
  aRole: Role;
}

export function encodePairId(ref: PairRef): string {
  return Buffer.from(JSON.stringify([ref.jobId, ref.citationId, ref.suggestion, ref.aRole === 'existing' ? 0 : 1])).toString('base64url');
}

export function decodePairId(id: string): PairRef | undefined {
  try {
    const v = JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(v) || v.length !== 4) return undefined;
    const [jobId, citationId, suggestion, a] = v as unknown[];
    if (typeof jobId !== 'string' || typeof citationId !== 'string' || !Number.isInteger(suggestion) || (a !== 0 && a !== 1)) return undefined;
    return { jobId, citationId, suggestion: suggestion as number, aRole: a === 0 ? 'existing' : 'suggestion' };
  } catch {
    return undefined;
  }
}

/** A citation can be compared when its source was read and the audit found a suggestion. */
export function isComparable(r: CitationView): boolean {
  return !!r.existing && r.existing.sentences.length > 0 && r.suggestions.length > 0 && r.suggestions[0]!.sentences.length > 0;
}

/** Least verifiable first: where a better source matters most. */
export function comparisonOrder(results: CitationView[]): CitationView[] {
  return results.filter(isComparable).sort((x, y) => (x.verifiability ?? 0) - (y.verifiability ?? 0) || x.index - y.index);
}

export function newPairRef(jobId: string, r: CitationView): PairRef {
  return { jobId, citationId: r.citationId, suggestion: 0, aRole: randomInt(2) === 0 ? 'existing' : 'suggestion' };
}

function side(view: SourceView, role: Role): AnnotationSide {
  const s: AnnotationSide = {
    role,
    title: view.title,
    text: view.sentences.map((x) => x.text).join(' '),
    evidence: view.sentences.filter((x) => x.evidence).map((x) => x.text),
  };
  if (view.docId) s.docId = view.docId;
  if (view.url) s.url = view.url;
  return s;
}

/** The two sides of a pair, in display order, or undefined when the citation has no such pair. */
export function pairViews(r: CitationView, ref: PairRef): { a: SourceView; b: SourceView } | undefined {
  const suggestion = r.suggestions[ref.suggestion];
  if (!r.existing || !suggestion) return undefined;
  return ref.aRole === 'existing' ? { a: r.existing, b: suggestion } : { a: suggestion, b: r.existing };
}

export function pairSides(r: CitationView, ref: PairRef): { a: AnnotationSide; b: AnnotationSide } | undefined {
  const views = pairViews(r, ref);
  if (!views) return undefined;
  const bRole: Role = ref.aRole === 'existing' ? 'suggestion' : 'existing';
  return { a: side(views.a, ref.aRole), b: side(views.b, bRole) };
}

export function preferredRole(choice: Choice, ref: PairRef): Role | 'neither' {
  if (choice === 'neither') return 'neither';
  if (choice === 'A') return ref.aRole;
  return ref.aRole === 'existing' ? 'suggestion' : 'existing';
}
