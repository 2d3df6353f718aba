/**
 * LLM judges end to end without the internet (issue 39, item 4): `veracite models add` against a loopback
 * OpenAI-compatible server and a loopback Ollama server (models/llm/testing/fake-servers.ts), calibrated on
 * the shipped samples through the same path (and sanity gates) as a pulled model, then verify, check and
 * audit with --profile. The fake model answers the NLI sample's gold label (an oracle standing in for a good
 * judge) and reads other pairs by word overlap: the figures it reaches mean nothing; the flow, the call
 * counts, the cache and the key kept out of every output and file are what is checked.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Veracite } from '../src/app/veracite.js';
import { calibrateProfile } from '../src/cli/models-calibrate.js';
import { startServer } from '../src/server/start.js';
import { runCli } from '../src/cli/testing/run-cli.js';
import { takeJudgeUsage, usageLine } from '../src/models/llm/usage.js';
import { startFakeOllama, startFakeOpenAi, type FakeServer } from '../src/models/llm/testing/fake-servers.js';
import { sampleOracle } from '../src/models/llm/testing/sample-oracle.js';

const KEY = 'sk-e2e-NEVER-WRITTEN-51c0ffee';
const KEY_VAR = 'VERACITE_TEST_LLM_KEY';
const LIMIT = { train: 6, dev: 3, wice: 8, snli: 36 };

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

/** Runs the CLI, capturing stdout and stderr. */
async function cli(args: string[]): Promise<{ out: string; err: string }> {
  const err: string[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => void err.push(a.join(' '));
  try {
    const out = await runCli(args);
    return { out, err: err.join('\n') };
  } finally {
    console.error = error;
  }
}

describe('LLM judge profiles end to end (loopback servers)', () => {
  let root: string;
  let home: string;
  let openai: FakeServer;
  let ollama: FakeServer;
  const outputs: string[] = [];
  const saved = { dir: process.env.VERACITE_MODELS_DIR, key: process.env[KEY_VAR] };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'veracite-llm-e2e-'));
    home = join(root, 'home');
    process.env.VERACITE_MODELS_DIR = home;
    process.env[KEY_VAR] = KEY;
    const { gold, oracle } = await sampleOracle();
    openai = await startFakeOpenAi({ gold, oracle });
    ollama = await startFakeOllama({ gold, oracle, logprobs: false }, 'bespoke-minicheck:7b');
  });

  after(async () => {
    await openai.close();
    await ollama.close();
    await rm(root, { recursive: true, force: true });
    if (saved.dir === undefined) delete process.env.VERACITE_MODELS_DIR;
    else process.env.VERACITE_MODELS_DIR = saved.dir;
    if (saved.key === undefined) delete process.env[KEY_VAR];
    else process.env[KEY_VAR] = saved.key;
  });

  it('models add (openai, key from a variable) -> calibrate -> verify, serve, check, audit with --profile', async () => {
    const added = await cli(['models', 'add', 'judge-gpt', '--engine', 'openai', '--base-url', `${openai.url}/v1`, '--model', 'fake-judge', '--api-key-env', KEY_VAR, '--price-input', '0.15', '--price-output', '0.60']);
    outputs.push(added.out, added.err);
    assert.match(added.out, /judge-gpt: LLM judge openai fake-judge at http:\/\/127\.0\.0\.1:\d+\/v1, key from \$VERACITE_TEST_LLM_KEY/);
    assert.match(added.out, /veracite models calibrate judge-gpt/);

    const logs: string[] = [];
    const profile = await calibrateProfile({ name: 'judge-gpt', home, limit: LIMIT, command: 'test', log: (l) => logs.push(l) });
    outputs.push(JSON.stringify(profile), ...logs);
    assert.equal(profile.role, 'nli');
    assert.equal(profile.repo, 'llm/judge-gpt');
    assert.ok(profile.calibration.verdict && profile.calibration.audit, JSON.stringify(profile.calibration));
    assert.ok(profile.figures['snli-sample accuracy']!.value > 0.9, JSON.stringify(profile.figures));
    const calls = openai.answered;
    assert.ok(calls > LIMIT.snli, `${calls} requests`);
    takeJudgeUsage();

    // verify, on the shipped SciFact sample
    const vc = await Veracite.open({ index: { dir: 'memory:' }, models: { profile: 'judge-gpt' }, retrieval: { mode: 'bm25' } }, { create: true });
    try {
      // A slice of the shipped SciFact sample is corpus enough for one verdict (and the server's below).
      const corpus = join(root, 'corpus.jsonl');
      await writeFile(corpus, (await readFile('data/samples/scifact/corpus.jsonl', 'utf8')).split('\n').slice(0, 60).join('\n') + '\n');
      await vc.ingest(corpus);
      const v = await vc.verify('Vitamin D deficiency increases the risk of fractures.');
      outputs.push(JSON.stringify(v));
      const judge = v.provenance.models.find((m) => m.backend === 'llm')!;
      assert.ok(judge, JSON.stringify(v.provenance.models));
      assert.equal(judge.details!.engine, 'openai');
      assert.equal(judge.details!.model, 'fake-judge');
      assert.match(String(judge.details!.server), /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      assert.match(String(judge.details!.prompt), /^[0-9a-f]{16}$/);
      assert.deepEqual(judge.details!.params, { temperature: 0, seed: 13, maxTokens: 96, topLogprobs: 5 });
      assert.equal(v.provenance.config.calibrated, true);
      assert.equal((v.provenance.config.profile as { name: string }).name, 'judge-gpt');
      // A judge whose answers cannot be read: the verdict is still given, marked needs review with the reason.
      openai.options.content = 'I am sorry, I cannot assess medical claims.';
      await rm(join(home, 'judge-gpt', 'llm-cache'), { recursive: true, force: true });
      const unread = await vc.verify('Vitamin D deficiency increases the risk of fractures.');
      delete openai.options.content;
      assert.ok(unread.evidence.length > 0);
      assert.match(unread.review?.message ?? '', /not to be trusted as it is: the judge's answer does not start with SUPPORTED/, JSON.stringify(unread.review));
    } finally {
      await vc.close();
    }
    // serve, over HTTP: the same profile behind /v1/verify
    const sv = await Veracite.open({ index: { dir: 'memory:' }, models: { profile: 'judge-gpt' }, retrieval: { mode: 'bm25' } }, { create: true });
    await sv.ingest(join(root, 'corpus.jsonl'));
    const server = await startServer({ port: 0 }, sv);
    try {
      const res = await fetch(`${server.url}/v1/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ claim: 'Vitamin D deficiency increases the risk of fractures.' }) });
      const text = await res.text();
      outputs.push(text);
      assert.equal(res.status, 200, text);
      assert.match(text, /"backend":"llm"/);
    } finally {
      await server.close();
    }
    const verifyUsage = takeJudgeUsage();
    assert.ok(verifyUsage.some((t) => t.calls + t.cacheHits > 0), JSON.stringify(verifyUsage));

    // check, from the CLI: one claim against a saved source
    const checked = await cli(['check', 'Aspirin reduces the risk of heart attack.', '--source', 'data/samples/audit/sources/scifact-13519661.txt', '--no-index', '--no-recommend', '--profile', 'judge-gpt', '--json']);
    outputs.push(checked.out, checked.err);
    const record = JSON.parse(checked.out) as { provenance?: { models?: { backend?: string }[] } };
    assert.ok(JSON.stringify(record).includes('"backend":"llm"'), checked.out.slice(0, 500));

    // audit, from the CLI: the shipped sample article, its first citations
    const out = join(root, 'audit.json');
    const audited = await cli(['audit', 'data/samples/audit/Breast_cancer_risk_factors.txt', '--sources', 'data/samples/audit/sources', '--no-index', '--no-recommend', '--profile', 'judge-gpt', '--limit', '4', '--out', out, '--quiet']);
    const report = await readFile(out, 'utf8');
    outputs.push(audited.out, audited.err, report);
    assert.ok(report.includes('"backend":"llm"') || report.includes('"backend": "llm"'), 'the audit names the LLM judge');
    const parsed = JSON.parse(report) as { citations: unknown[] };
    assert.equal(parsed.citations.length, 4);
  });

  it('the cascade sends only uncertain pairs, --max-calls bounds a run, and a rerun is answered from the cache', async () => {
    takeJudgeUsage();
    // Added again with another threshold only: the judge reads the same, so its calibration is kept. The
    // offline head reads this check's three pairs at top probabilities 0.74-0.79: 0.76 sends one of them, not all.
    const readded = await cli(['models', 'add', 'judge-gpt', '--engine', 'openai', '--base-url', `${openai.url}/v1`, '--model', 'fake-judge', '--api-key-env', KEY_VAR, '--uncertain-below', '0.76']);
    outputs.push(readded.out);
    assert.doesNotMatch(readded.out, /calibration was removed/);
    const claim = 'Smoking is a cause of lung cancer in most patients.';
    const source = { text: 'Smoking is the main cause of lung cancer. Most cases are in smokers. Screening finds early tumours. The study followed 2,000 adults for ten years. Rainfall in the region was low that year.' };
    const run = async (settings: { judge?: 'all' | 'uncertain'; maxCalls?: number }) => {
      const vc = await Veracite.open({ index: { dir: null }, models: { profile: 'judge-gpt', ...settings } });
      try {
        await vc.check({ claim, source, suggestions: 0 });
      } finally {
        await vc.close();
      }
      const [t] = takeJudgeUsage();
      assert.ok(t, 'the run has a tally');
      outputs.push(usageLine(t));
      return t;
    };
    await rm(join(home, 'judge-gpt', 'llm-cache'), { recursive: true, force: true });
    const all = await run({ judge: 'all' });
    assert.ok(all.pairs > 0 && all.calls === all.pairs && all.cacheHits === 0, usageLine(all));
    await rm(join(home, 'judge-gpt', 'llm-cache'), { recursive: true, force: true });
    const cascade = await run({ judge: 'uncertain' });
    assert.ok(cascade.keptOffline > 0, `the offline head decided some pairs: ${usageLine(cascade)}`);
    assert.equal(cascade.calls, cascade.pairs - cascade.keptOffline, usageLine(cascade));
    // A rerun of the same check costs nothing.
    const again = await run({ judge: 'all' });
    assert.equal(again.calls, all.pairs - cascade.calls, usageLine(again));
    const third = await run({ judge: 'all' });
    assert.equal(third.calls, 0, usageLine(third));
    assert.equal(third.cacheHits, all.pairs);
    // A budget of one request on a fresh cache: the rest are read by the offline head, and said so.
    await rm(join(home, 'judge-gpt', 'llm-cache'), { recursive: true, force: true });
    const bounded = await run({ judge: 'all', maxCalls: 1 });
    assert.equal(bounded.calls, 1);
    assert.equal(bounded.overBudget, bounded.pairs - 1);
    assert.match(usageLine(bounded), /1 calls, 0 cache hits, .* over --max-calls/);
  });

  it('models add --engine ollama records the digest; calibrate and check with discrete answers', async () => {
    const added = await cli(['models', 'add', 'minicheck', '--engine', 'ollama', '--base-url', ollama.url, '--model', 'bespoke-minicheck:7b']);
    outputs.push(added.out);
    assert.match(added.out, /minicheck: LLM judge ollama bespoke-minicheck:7b .*\(digest (ab)+\)/);
    const profile = await calibrateProfile({ name: 'minicheck', home, limit: LIMIT, command: 'test' });
    outputs.push(JSON.stringify(profile));
    assert.ok(profile.calibration.verdict, JSON.stringify(profile));
    const vc = await Veracite.open({ index: { dir: null }, models: { profile: 'minicheck' } });
    try {
      const v = await vc.check({ claim: 'Smoking causes lung cancer.', source: { text: 'Smoking is the main cause of lung cancer. Most cases are in smokers.' }, suggestions: 0 });
      const judge = v.provenance.models.find((m) => m.backend === 'llm')!;
      assert.ok(judge, JSON.stringify(v.provenance.models));
      assert.equal(judge.details!.digest, 'ab'.repeat(32));
      assert.equal(judge.details!.engine, 'ollama');
    } finally {
      await vc.close();
    }
    takeJudgeUsage();
  });

  it('the API key reached the server only in the Authorization header: no output, provenance or file holds it', async () => {
    assert.ok(openai.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`));
    for (const text of outputs) assert.ok(!text.includes(KEY), `an output holds the key: ${text.slice(0, 200)}`);
    const files = await filesUnder(root);
    assert.ok(files.length > 10, `${files.length} files written`);
    for (const f of files) assert.ok(!(await readFile(f)).includes(KEY), `${f} holds the key`);
  });
});
