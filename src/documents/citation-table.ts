/**
 * The citations of a document while it is being read: each marker found (a link, a footnote reference, a
 * "[3]", an identifier or URL written in the text) gets an entry and leaves a marker token in the text
 * (src/wiki/markers.ts, the same private-use tokens the Wikipedia readers use). `assemble.ts` later finds
 * where each token ended up in the sentences.
 */
import { findWorkIds } from '../sources/work-ids.js';
import type { CitationKind } from '../wiki/types.js';
import { marker } from '../wiki/markers.js';
import { expandNumbers, findUrls, NUMBERED_MARKER } from './references.js';
import type { DocumentSource, MarkerKind, SkippedCitation } from './types.js';

export interface PendingCitation {
  source: DocumentSource;
  marker: MarkerKind;
  kind: CitationKind;
}

export interface MarkTextOptions {
  /** Bare http(s) URLs in the text are citations (plain text, HTML text outside links). */
  urls?: boolean;
  /** The numbered reference list, when the document has one: "[n]" in the text points into it. */
  numbered?: ReadonlyMap<number, DocumentSource>;
}

export class CitationTable {
  readonly entries: PendingCitation[] = [];
  readonly skipped: SkippedCitation[] = [];
  private readonly used = new Set<string>();

  /** Registers a citation and returns the token to put in the text where its marker is. */
  add(source: DocumentSource, markerKind: MarkerKind, reuseKey?: string): string {
    const kind: CitationKind = reuseKey !== undefined && this.used.has(reuseKey) ? 'reuse' : 'ref';
    if (reuseKey !== undefined) this.used.add(reuseKey);
    this.entries.push({ source, marker: markerKind, kind });
    return marker('c', this.entries.length - 1);
  }

  skip(reason: string, source: DocumentSource): void {
    this.skipped.push({ reason, source });
  }

  /**
   * Replaces the citations written inside a run of text ("[2]", "doi:10.1000/x", "arXiv:2101.00001",
   * "PMID: 123", and with `urls` a bare URL) by marker tokens. An identifier or URL is a reference, not
   * part of the claim: only its token stays ("(doi:...)" leaves no empty brackets). Keeping a URL in the
   * sentence would also hide the sentence end after it from the splitter ("...survey.pdf. Next").
   */
  markText(text: string, opts: MarkTextOptions = {}): string {
    type Span = { start: number; end: number; cites: { source: DocumentSource; marker: MarkerKind; reuseKey?: string }[] };
    const spans: Span[] = [];
    const taken = (s: number, e: number) => spans.some((x) => s < x.end && e > x.start);
    if (opts.numbered) {
      for (const m of text.matchAll(NUMBERED_MARKER)) {
        const numbers = expandNumbers(m[1]!);
        const cites: Span['cites'] = [];
        for (const n of numbers) {
          const entry = opts.numbered.get(n);
          if (entry) cites.push({ source: entry, marker: 'numbered', reuseKey: `n:${n}` });
          else this.skip(`no entry [${n}] in the references list`, { raw: `[${n}]` });
        }
        if (cites.length) spans.push({ start: m.index, end: m.index + m[0].length, cites });
      }
    }
    if (opts.urls) {
      for (const u of findUrls(text)) if (!taken(u.start, u.end)) spans.push({ start: u.start, end: u.end, cites: [{ source: { raw: u.url, url: u.url }, marker: 'url' }] });
    }
    for (const f of findWorkIds(text)) {
      if (taken(f.start, f.end)) continue;
      const raw = text.slice(f.start, f.end);
      spans.push({ start: f.start, end: f.end, cites: [{ source: { raw, ids: { [f.type]: f.id } }, marker: 'identifier' }] });
    }
    if (!spans.length) return text;
    spans.sort((a, b) => a.start - b.start);
    let out = '';
    let at = 0;
    for (const s of spans) {
      out += text.slice(at, s.start) + s.cites.map((c) => this.add(c.source, c.marker, c.reuseKey)).join('');
      at = s.end;
    }
    return out + text.slice(at);
  }
}

