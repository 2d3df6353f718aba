/**
 * How long one large search answer holds the event loop (issue 44 item 3): an OpenAlex page of 10 works
 * whose abstracts are at the word cap (~3.6 MB, under SEARCH_MAX_BYTES) read through SearchClient from a
 * loopback fake, on this thread and in the answer worker (what the composition root uses); the event loop's
 * longest delay while it is read (perf_hooks.monitorEventLoopDelay, 10 ms resolution), 5 runs each.
 * Usage: node --import tsx bench/bench-search-answer-stall.ts
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startSearchApiServer } from '../test/fixtures/search/serve-search-apis.js';
import { MAX_ABSTRACT_WORDS } from '../src/search/answer-check.js';
import { inThreadAnswerReader, workerAnswerReader, type AnswerReader } from '../src/search/answer-pool.js';
import { PROVIDERS } from '../src/search/providers/index.js';
import { SearchClient } from '../src/search/search-client.js';
import { saveBenchResult } from './util.js';

const works = Array.from({ length: 10 }, (_, w) => ({
  id: `https://openalex.org/W${w}`,
  doi: `https://doi.org/10.5555/big.${w}`,
  title: `Big work ${w}`,
  abstract_inverted_index: Object.fromEntries(Array.from({ length: MAX_ABSTRACT_WORDS }, (_, i) => [`w${w}x${i}`, [i]])),
}));
const body = JSON.stringify({ results: works });
const srv = await startSearchApiServer();
const results: Record<string, unknown> = {};
for (const [name, reader] of [['this thread', inThreadAnswerReader()], ['answer worker', workerAnswerReader()]] as [string, AnswerReader][]) {
  const rows: { maxDelayMs: number; wallMs: number }[] = [];
  for (let i = 0; i < 6; i++) {
    srv.queue.openalex = [{ body }];
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    const t = performance.now();
    const hits = await PROVIDERS.openalex.search('big works', 10, new SearchClient({ bases: srv.bases, intervalMs: 0, answers: reader }));
    const wallMs = performance.now() - t;
    // The histogram records a delay when its timer next runs: let it run once after a blocking read.
    await new Promise((r) => setTimeout(r, 30));
    h.disable();
    if (hits.length !== 10) throw new Error('expected 10 hits');
    if (i > 0) rows.push({ maxDelayMs: Math.round(h.max / 1e6), wallMs: Math.round(wallMs) }); // the first run starts the worker
  }
  await reader.close();
  const worst = Math.max(...rows.map((r) => r.maxDelayMs));
  const wall = rows.map((r) => r.wallMs).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!;
  results[name] = { worstEventLoopDelayMs: worst, medianWallMs: wall, rows };
  console.log(`${name.padEnd(14)} longest event-loop delay ${worst} ms; wall per answer (median) ${wall} ms`);
}
await srv.close();
saveBenchResult('search-answer-stall', { answerBytes: body.length, works: works.length, wordsPerAbstract: MAX_ABSTRACT_WORDS, results, command: 'node --import tsx bench/bench-search-answer-stall.ts' });
