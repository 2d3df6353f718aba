/**
 * KILT / WAFER records (SIDE's data format) <-> our citations.
 *
 * Field names follow facebookresearch/side `datasets/WAFER.md`:
 *
 *   { id,
 *     input:  "<preceding sentences> <claim> [CIT]",          // in-context claim with the [CIT] tag
 *     output: [ { answer: <url> | "{Failed verification}",
 *                 provenance: [ { url, title? } ] } ],        // url mandatory (SIDE drops records without)
 *     meta:   { wikipedia_title, wikipedia_section,
 *               sentences: [..context, "<claim> [CIT]"],       // sentences[-1] holds [CIT]
 *               wikipedia_id?, cit_paragraph_id?, cit_offset?, featured? } }
 *
 * We write `wikipedia_section` (WAFER's name; the innermost heading, "" for the lead) and add two fields of
 * our own, `meta.section_path` (the full heading path), so a round trip keeps nested sections, and
 * `meta.claim_sentence` (the whole sentence, when the marker sits inside it: `input` ends at [CIT] as in
 * SIDE, so it holds only the citation's `claimPrefix`). Reading
 * also accepts `meta.section` / `meta.title` as older or hand-made files spell them, and an `input` of the
 * form "title [SEP] section [SEP] text [CIT]" that SIDE's query encoder understands.
 */
import { FieldError } from '../corpus/fields.js';
import { splitSentences } from '../corpus/sentences.js';
import type { Citation, CitationSource, CitationTags } from './types.js';

export const CIT = '[CIT]';
const FAILED_VERIFICATION_ANSWER = '{Failed verification}';

export interface WaferProvenance {
  url: string;
  title?: string;
  chunk_id?: string;
  text?: string;
}

export interface WaferRecord {
  id: string;
  input: string;
  output: { answer?: string; provenance: WaferProvenance[] }[];
  meta: {
    wikipedia_title?: string;
    wikipedia_section?: string;
    section_path?: string[];
    sentences?: string[];
    /** Ours: the whole sentence when [CIT] sits inside it. */
    claim_sentence?: string;
    wikipedia_id?: string;
    cit_paragraph_id?: number;
    cit_offset?: number;
    featured?: boolean;
    [key: string]: unknown;
  };
}

/** What a WAFER record holds of a citation; a Citation is one, so citations can be written directly. */
export interface WaferCitation {
  id: string;
  /** The whole sentence holding the citation. */
  claim: string;
  /** The sentence up to the marker (SIDE's text before [CIT]); the claim when absent. */
  claimPrefix?: string;
  context: string[];
  sectionPath: string[];
  articleTitle: string;
  source: Pick<CitationSource, 'url' | 'title'> & Partial<CitationSource>;
  tags: CitationTags;
}

/** The record for one citation, or undefined when it has no URL (WAFER's provenance needs one). */
export function toWaferRecord(c: WaferCitation): WaferRecord | undefined {
  const url = c.source.url ?? c.source.archiveUrl;
  if (!url) return undefined;
  const prefix = c.claimPrefix ?? c.claim;
  const last = `${prefix} ${CIT}`;
  const provenance: WaferProvenance = { url };
  if (c.source.title) provenance.title = c.source.title;
  return {
    id: c.id,
    input: [...c.context, last].join(' '),
    output: [{ answer: c.tags.failedVerification ? FAILED_VERIFICATION_ANSWER : url, provenance: [provenance] }],
    meta: {
      wikipedia_title: c.articleTitle,
      wikipedia_section: c.sectionPath.at(-1) ?? '',
      section_path: c.sectionPath,
      sentences: [...c.context, last],
      ...(prefix !== c.claim ? { claim_sentence: c.claim } : {}),
    },
  };
}

/** A record -> citation fields. Throws FieldError naming the field when the record is unusable. */
export function fromWaferRecord(value: unknown): WaferCitation & { claimPrefix: string; input: string } {
  if (!isObject(value)) throw new FieldError(undefined, 'not a JSON object');
  const { id, input, output, meta = {} } = value as Partial<WaferRecord> & Record<string, unknown>;
  if (typeof id !== 'string' && typeof id !== 'number') throw new FieldError('id', 'missing or not a string');
  if (typeof input !== 'string') throw new FieldError('input', 'missing or not a string');
  if (!isObject(meta)) throw new FieldError('meta', 'not an object');
  if (output !== undefined && !Array.isArray(output)) throw new FieldError('output', 'not an array');

  const { claim, claimPrefix, context } = claimOf(input, meta['sentences']);
  const sentence = meta['claim_sentence'];
  if (sentence !== undefined && typeof sentence !== 'string') throw new FieldError('meta.claim_sentence', 'not a string');
  const first = output?.[0];
  const prov = first?.provenance?.[0];
  const source: WaferCitation['source'] = { raw: JSON.stringify(first ?? null) };
  if (typeof prov?.url === 'string') source.url = prov.url;
  if (typeof prov?.title === 'string') source.title = prov.title;
  return {
    id: String(id),
    input,
    claim: sentence?.trim() || claim,
    claimPrefix,
    context,
    sectionPath: sectionPathOf(meta),
    articleTitle: str(meta['wikipedia_title']) ?? str(meta['title']) ?? titleFromInput(input) ?? '',
    source,
    tags: { failedVerification: first?.answer === FAILED_VERIFICATION_ANSWER, citationNeeded: false, deadLink: false },
  };
}

/**
 * Prefix = the last sentence before [CIT] (from meta.sentences when given, else split from `input`),
 * without the tag; claim = that sentence completed by what follows [CIT] up to the sentence's end (SIDE's
 * records end at [CIT], so there the claim is the prefix); context = the sentences before it.
 */
function claimOf(input: string, sentences: unknown): { claim: string; claimPrefix: string; context: string[] } {
  if (Array.isArray(sentences) && sentences.length > 0 && sentences.every((s) => typeof s === 'string')) {
    const all = sentences as string[];
    const last = all.at(-1)!;
    const prefix = beforeCit(last);
    return { claim: completed(prefix, afterCit(last)), claimPrefix: prefix, context: all.slice(0, -1) };
  }
  const text = input.split('[SEP]').at(-1)!;
  const parts = splitSentences(beforeCit(text));
  if (parts.length === 0) throw new FieldError('input', 'no text before [CIT]');
  const prefix = parts.at(-1)!;
  return { claim: completed(prefix, afterCit(text)), claimPrefix: prefix, context: parts.slice(0, -1) };
}

function beforeCit(s: string): string {
  const at = s.indexOf(CIT);
  return (at < 0 ? s : s.slice(0, at)).trim();
}

function afterCit(s: string): string {
  const at = s.indexOf(CIT);
  return at < 0 ? '' : s.slice(at + CIT.length).trim();
}

/** The prefix plus the rest of its sentence after the marker ("Bodmin (Bosvena" + ") is a town. Next." -> "Bodmin (Bosvena) is a town."). */
function completed(prefix: string, after: string): string {
  // A prefix that ends its sentence (or a record whose [CIT] closes it) has nothing to complete.
  if (!after || /[.!?]["'’”)\]]*$/u.test(prefix)) return prefix;
  const rest = splitSentences(after)[0] ?? '';
  if (!rest) return prefix;
  return /^[\w"'(\[]/u.test(rest) ? `${prefix} ${rest}` : `${prefix}${rest}`;
}

function sectionPathOf(meta: Record<string, unknown>): string[] {
  const path = meta['section_path'];
  if (Array.isArray(path) && path.every((p) => typeof p === 'string')) return path as string[];
  const section = str(meta['wikipedia_section']) ?? str(meta['section']);
  // KILT writes sections as "Section::::History." — keep just the heading
  const clean = section?.replace(/^Section::::/, '').replace(/\.$/, '').trim();
  return clean ? [clean] : [];
}

function titleFromInput(input: string): string | undefined {
  const parts = input.split('[SEP]');
  return parts.length === 3 ? parts[0]!.trim() || undefined : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
