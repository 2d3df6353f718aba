/**
 * Raw wikitext -> Article with one Citation per footnote in the prose.
 *
 * Pipeline: markWikitext replaces every ref by a marker token (and records where it was and what it
 * says); wtf_wikipedia renders the marked text into sections and paragraphs of plain text, the markers
 * riding along; assembleArticle splits sentences (src/corpus/sentences.ts) and turns each marker into a
 * claim. A reuse `<ref name="a"/>` gets the source fields of the ref that defines "a", wherever that is
 * (before, after, or in the reference list).
 *
 * Refs that wtf_wikipedia leaves out of the prose (infobox fields, table cells, image captions,
 * galleries, {{efn}} notes) have no sentence to cite; they are listed in `Article.skipped` with the
 * construct that held them, not given a made-up claim.
 */
import { assembleArticle, type CitationInput } from './assemble-article.js';
import { definitionKey, markWikitext, type RefOccurrence } from './mark-wikitext.js';
import { readRefSource, type RefSourceFields } from './read-ref-source.js';
import { renderSections } from './render-sections.js';
import { DEFAULT_CONTEXT_SENTENCES, type Article, type ParseOptions } from './types.js';

export function parseWikitext(wikitext: string, opts: ParseOptions = {}): Article {
  const { refs, definitions, marked, uncited } = markWikitext(wikitext);
  // a named ref reused n times is read once (wtf_wikipedia costs ~0.5 ms a ref)
  const read = new Map<string, RefSourceFields>();
  const readOnce = (content: string, raw: string, name?: string): RefSourceFields => {
    let fields = read.get(raw);
    if (!fields) read.set(raw, (fields = readRefSource(content, raw, name)));
    // each citation gets its own copy: callers may annotate one citation's source
    return { source: { ...fields.source }, deadLinkTag: fields.deadLinkTag };
  };
  const citations = refs.map((occ): CitationInput => {
    const { source, deadLinkTag } = sourceOf(occ, definitions, readOnce);
    return {
      source,
      tags: { ...occ.tags, deadLink: occ.tags.deadLink || deadLinkTag },
      kind: occ.kind,
      where: occ.where,
      wikitextStart: occ.start,
      wikitextEnd: occ.end,
    };
  });
  return assembleArticle({
    title: opts.title ?? '',
    sections: renderSections(marked),
    citations,
    uncited,
    contextSentences: opts.contextSentences ?? DEFAULT_CONTEXT_SENTENCES,
  });
}

function sourceOf(
  occ: RefOccurrence,
  definitions: ReturnType<typeof markWikitext>['definitions'],
  read: (content: string, raw: string, name?: string) => RefSourceFields,
): RefSourceFields {
  if (occ.kind === 'short') return { source: { raw: occ.raw }, deadLinkTag: false };
  if (occ.kind === 'reuse') {
    const def = occ.name ? definitions.get(definitionKey(occ.group, occ.name)) : undefined;
    // a reuse of a name defined nowhere: MediaWiki shows an error; we keep the bare tag as the source
    if (!def) return { source: { raw: occ.raw, ...(occ.name ? { name: occ.name } : {}) }, deadLinkTag: false };
    return read(def.content, def.raw, occ.name);
  }
  return read(occ.content, occ.raw, occ.name);
}
