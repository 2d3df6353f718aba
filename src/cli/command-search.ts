/**
 * `veracite search "text"`: ranked documents (score = best passage) and their best passages, by BM25,
 * dense vectors or both fused.
 */
import type { Command } from 'commander';
import { writeTrecRun } from '../eval/trec-run.js';
import { DEFAULT_RRF_K, DEFAULT_SPARSE_WEIGHT } from '../retrieve/fusion.js';
import type { RetrieverResult } from '../retrieve/retriever.js';
import { count, snapshotText } from './format.js';
import { addOptions, positiveInt, type OptionPick } from './options.js';
import { withApp } from './open-app.js';

export const SEARCH_OPTIONS: OptionPick = { index: ['index'], models: ['embedder', 'device'], retrieval: true };

function snippet(text: string, max = 220): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What the bracketed number is: each mode ranks on its own scale, and none of them is a probability. */
export function searchScoreScale(r: Pick<RetrieverResult, 'mode' | 'config'>): string {
  if (r.mode === 'bm25') return 'BM25 of the best passage (higher = better match; unbounded, not a probability)';
  if (r.mode === 'dense') return 'cosine similarity of the best passage to the query (-1..1; not a probability)';
  const f = r.config.fusion;
  switch (f.method) {
    case 'weighted': {
      const w = f.sparseWeight ?? DEFAULT_SPARSE_WEIGHT;
      return `${w} x BM25 + ${+(1 - w).toFixed(3)} x cosine, each min-max scaled within this result list (0..1; compare within one list only)`;
    }
    case 'rrf':
      return `reciprocal-rank fusion, sum of 1 / (${f.rrfK ?? DEFAULT_RRF_K} + rank) over the BM25 and dense lists (compare within one list only)`;
    default:
      return 'union of the BM25 and dense lists ordered by reciprocal rank (meant to be reranked; compare within one list only)';
  }
}

export function printSearchResult(r: RetrieverResult): void {
  console.log(`${count(r.documents.length, 'document')} for "${r.query}" (${r.mode}, ${r.tookMs.toFixed(1)} ms, ${snapshotText(r.snapshot)})`);
  if (r.documents.length) console.log(`  [score]: ${searchScoreScale(r)}`);
  for (const d of r.documents) {
    const best = d.passages[0]!;
    console.log(`${String(d.rank).padStart(3)}. [${d.score.toFixed(3)}] ${d.title} (${d.docId})`);
    console.log(`     passage ${best.passage.index}, sentences ${best.passage.sentenceStart}-${best.passage.sentenceEnd - 1}: ${snippet(best.passage.text)}`);
  }
}

export function registerSearchCommand(program: Command): void {
  addOptions(
    program
      .command('search')
      .description('search an index; documents are ranked by their best passage')
      .argument('<text>', 'query text')
      .option('-k, --k <n>', 'documents to return', positiveInt('-k'), 10)
      .option('--json', 'JSON output')
      .option('--run <file>', 'also write the ranking as a TREC run file (qid Q0 docid rank score tag)')
      .option('--qid <id>', 'query id in the run file', '1'),
    SEARCH_OPTIONS,
  ).action(async (text: string, flags: { k: number; json?: boolean; run?: string; qid: string } & Record<string, unknown>) => {
    await withApp(flags, SEARCH_OPTIONS, async (vc) => {
      const result = await vc.search(text, { k: flags.k });
      if (flags.run) await writeTrecRun(flags.run, [{ queryId: flags.qid, hits: result.documents.map((d) => ({ docId: d.docId, score: d.score })) }], `veracite-${result.mode}`);
      if (flags.json) console.log(JSON.stringify(result, null, 2));
      else printSearchResult(result);
    });
  });
}
