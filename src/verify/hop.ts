/**
 * Evidence hop (multi-hop FEVER claims): follow the links of the selected evidence documents to the
 * linked pages, select evidence there too, and down-weight it (scores × weight), since a linked page is
 * one step further from the claim. Needs a corpus with links (FEVER wiki-pages, KILT); a no-op otherwise.
 */
import { titleKey } from '../store/title-key.js';
import type { Store } from '../store/types.js';
import type { Document, EvidenceSelectOptions, EvidenceSelector, EvidenceSentence } from './types.js';

export interface HopConfig {
  enabled: boolean;
  /** Multiplier applied to evidence scores from linked documents. */
  weight: number;
  /** Linked documents followed at most. */
  maxDocs: number;
}

export async function hopEvidence(
  store: Store,
  selector: EvidenceSelector,
  claim: string,
  evidence: EvidenceSentence[],
  docs: Document[],
  cfg: HopConfig,
  opts: EvidenceSelectOptions,
): Promise<EvidenceSentence[]> {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const seen = new Set(docs.map((d) => d.id));
  const links: string[] = [];
  for (const e of evidence) for (const l of byId.get(e.docId)?.links ?? []) if (!links.includes(l)) links.push(l);
  if (links.length === 0) return evidence;
  const targets = (await store.findTitles(links.map(titleKey))).filter((t) => !seen.has(t.id)).slice(0, cfg.maxDocs);
  if (targets.length === 0) return evidence;
  const linked = await store.getDocuments(targets.map((t) => t.id));
  const hopped = (await selector.select(claim, linked, opts)).map((e) => ({ ...e, score: e.score * cfg.weight }));
  return [...evidence, ...hopped].sort((a, b) => b.score - a.score).slice(0, opts.k);
}
