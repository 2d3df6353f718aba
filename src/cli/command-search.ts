/**
 * `veracite search "text"`: ranked documents (score = best passage) and their best passages.
 */
import type { Command } from 'commander';
import { searchBm25 } from '../retrieve/search-bm25.js';
import { LanceStore } from '../store/lancedb-store.js';
import type { SearchResult } from '../retrieve/types.js';
import { DEFAULT_INDEX, oneOf, positiveInt } from './options.js';

export const SEARCH_MODES = ['bm25'] as const;

function snippet(text: string, max = 220): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function printSearchResult(r: SearchResult): void {
  console.log(`${r.documents.length} documents for "${r.query}" (${r.mode}, ${r.tookMs.toFixed(1)} ms, snapshot ${r.snapshot})`);
  for (const d of r.documents) {
    const best = d.passages[0]!;
    console.log(`${String(d.rank).padStart(3)}. [${d.score.toFixed(3)}] ${d.title} (${d.docId})`);
    console.log(`     passage ${best.passage.index}, sentences ${best.passage.sentenceStart}-${best.passage.sentenceEnd - 1}: ${snippet(best.passage.text)}`);
  }
}

export function registerSearchCommand(program: Command): void {
  program
    .command('search')
    .description('search an index; documents are ranked by their best passage')
    .argument('<text>', 'query text')
    .option('--index <dir>', 'index directory', DEFAULT_INDEX)
    .option('-k, --k <n>', 'documents to return', positiveInt('-k'), 10)
    .option('--mode <mode>', `retrieval mode: ${SEARCH_MODES.join('|')}`, oneOf('--mode', SEARCH_MODES), 'bm25')
    .option('--json', 'JSON output')
    .action(async (text: string, flags: { index: string; k: number; mode: string; json?: boolean }) => {
      const store = await LanceStore.open(flags.index, { create: false });
      try {
        const result = await searchBm25(store, text, { k: flags.k });
        if (flags.json) console.log(JSON.stringify(result, null, 2));
        else printSearchResult(result);
      } finally {
        await store.close();
      }
    });
}
