/**
 * What an LLM judge costs per 100 citations (issue 39, item 6), measured on the loopback fake
 * OpenAI-compatible server's token counts (src/models/llm/testing/fake-servers.ts: characters / 4 plus 4
 * per message, about what English text costs in a real tokenizer): the shipped audit sample and the two
 * citation-set articles are audited with an LLM judge profile, every pair sent (--judge all) and only the
 * pairs the offline head leaves uncertain (--judge uncertain), each on an empty answer cache; then again
 * with the cache (a rerun). Saves eval-results/llm-judge-cost.json.
 *
 *   node --import tsx scripts/llm-judge-cost.ts
 *
 * The prices are list prices per million tokens (input / output) quoted in docs/MODELS.md with their
 * sources; change them there and here together.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrateProfile } from '../src/cli/models-calibrate.js';
import { runCli } from '../src/cli/testing/run-cli.js';
import { addLlmProfile } from '../src/models/llm/add.js';
import { startFakeOpenAi } from '../src/models/llm/testing/fake-servers.js';
import { sampleOracle } from '../src/models/llm/testing/sample-oracle.js';
import { takeJudgeUsage, type UsageTally } from '../src/models/llm/usage.js';

const ARTICLES = [
  { article: 'data/samples/audit/Breast_cancer_risk_factors.txt', sources: 'data/samples/audit/sources' },
  { article: 'data/samples/citation-set/Multidrug-resistant_tuberculosis.txt', sources: 'data/samples/citation-set/sources' },
  { article: 'data/samples/citation-set/Malaria_prophylaxis.txt', sources: 'data/samples/citation-set/sources' },
];
const PRICES = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'local (Ollama, vLLM)': { input: 0, output: 0 },
};

const root = await mkdtemp(join(tmpdir(), 'veracite-llm-cost-'));
const home = join(root, 'home');
process.env.VERACITE_MODELS_DIR = home;
const server = await startFakeOpenAi(await sampleOracle());
try {
  await addLlmProfile({ name: 'judge', home, config: { engine: 'openai', baseUrl: `${server.url}/v1`, model: 'fake-judge' } });
  console.error('calibrating (small samples: the calibration is not what is measured)');
  await calibrateProfile({ name: 'judge', home, limit: { train: 6, dev: 3, wice: 8, snli: 36 }, command: 'scripts/llm-judge-cost.ts' });
  takeJudgeUsage();

  const runs: Record<string, { citations: number; checked: number; tally: Omit<UsageTally, 'profile' | 'cost'>; seconds: number }> = {};
  for (const [mode, fresh] of [['uncertain', true], ['all', true], ['all (rerun, cached)', false]] as const) {
    if (fresh) await rm(join(home, 'judge', 'llm-cache'), { recursive: true, force: true });
    const sum = { pairs: 0, calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, keptOffline: 0, overBudget: 0, unreadable: 0 };
    let citations = 0;
    let checked = 0;
    const t0 = performance.now();
    for (const a of ARTICLES) {
      const out = join(root, 'audit.json');
      await runCli(['audit', a.article, '--sources', a.sources, '--no-index', '--no-recommend', '--profile', 'judge', '--judge', mode.startsWith('all') ? 'all' : 'uncertain', '--out', out, '--quiet']);
      const report = JSON.parse(await readFile(out, 'utf8')) as { citations: { status?: string; verification?: unknown }[] };
      citations += report.citations.length;
      checked += report.citations.filter((c) => c.verification).length;
      for (const t of takeJudgeUsage()) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += t[k];
    }
    runs[mode] = { citations, checked, tally: sum, seconds: (performance.now() - t0) / 1000 };
    console.error(`${mode}: ${citations} citations (${checked} checked), ${sum.pairs} pairs, ${sum.calls} calls, ${sum.cacheHits} cache hits, ${sum.inputTokens} tokens in, ${sum.outputTokens} out, ${sum.keptOffline} kept offline`);
  }

  const per100 = Object.fromEntries(
    Object.entries(runs).map(([mode, r]) => {
      const f = 100 / r.checked;
      const inTok = r.tally.inputTokens * f;
      const outTok = r.tally.outputTokens * f;
      return [mode, { calls: Math.round(r.tally.calls * f), inputTokens: Math.round(inTok), outputTokens: Math.round(outTok), cost: Object.fromEntries(Object.entries(PRICES).map(([m, p]) => [m, Number(((inTok * p.input + outTok * p.output) / 1e6).toFixed(4))])) }];
    }),
  );
  const result = {
    what: 'LLM judge cost per 100 checked citations (citations with a readable source), on the fake server\'s token counts (chars/4 + 4 per message)',
    command: 'node --import tsx scripts/llm-judge-cost.ts',
    articles: ARTICLES.map((a) => a.article),
    prices: { perMillionTokens: PRICES, currency: 'USD', sources: 'docs/MODELS.md, "Which engine to pick"' },
    runs,
    per100CheckedCitations: per100,
    measuredAt: new Date().toISOString(),
  };
  await writeFile('eval-results/llm-judge-cost.json', JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(per100, null, 2));
} finally {
  await server.close();
  await rm(root, { recursive: true, force: true });
}
