/**
 * Judges that cannot answer do not answer (issue 45 item 4), against the loopback OpenAI-compatible server
 * (src/models/llm/testing/fake-servers.ts):
 *   - a calibration whose every reply is unreadable is refused by the sanity gates, and the next run against
 *     the fixed server reads afresh and passes (the refused run's readings are not resumed); readings are
 *     kept per judge (model id and version: engine, server, model, prompt, parameters);
 *   - `veracite audit --profile <judge>` started as its own process, the judge answering nothing readable:
 *     every scored citation is *needs review* (never supported / not supported), counted in the CLI summary,
 *     the audit JSON (summary.judgeUnreadable) and the HTML report, and the run exits 69 (UNAVAILABLE) with a
 *     line saying why; `check --pairs` (a batch) counts such pairs in its summary line and exits 69 too; with a
 *     readable judge the same audit exits 0 with no such count.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { AuditReport } from '../src/audit/types.js';
import { calibrateProfile } from '../src/cli/models-calibrate.js';
import { runCli } from '../src/cli/testing/run-cli.js';
import { EXIT } from '../src/util/exit-codes.js';
import { ReadingCache } from '../src/models/reading-cache.js';
import type { EntailmentModel, EntailmentPair } from '../src/models/types.js';
import { takeJudgeUsage } from '../src/models/llm/usage.js';
import { startFakeOpenAi, type FakeServer } from '../src/models/llm/testing/fake-servers.js';
import { sampleOracle } from '../src/models/llm/testing/sample-oracle.js';
import { PROFILE_FILE, READINGS_FILE } from '../src/models/hub/profile.js';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

const KEY_VAR = 'VERACITE_TEST_LLM_KEY';
const LIMIT = { train: 6, dev: 3, wice: 8, snli: 36 };
const SORRY = 'I am sorry, I cannot assess medical claims.';

describe('reading cache: a reading that needs review is not kept; another judge reads afresh', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'vc-readings-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  it('keeps readable readings only, and starts afresh for another model id or version', async () => {
    const path = join(dir, 'readings.jsonl');
    let asked = 0;
    const judge = (bad: Set<string>): EntailmentModel => ({
      info: { id: 'openai:m@http://127.0.0.1:1/v1', version: 'v1', backend: 'llm' },
      predict: async (pairs: EntailmentPair[]) => pairs.map(() => (asked++, { entailment: 1 / 3, neutral: 1 / 3, contradiction: 1 / 3 })),
      reviewOf: (p: EntailmentPair) => (bad.has(p.premise) ? "the judge's answer is empty" : undefined),
    });
    const pairs = [{ premise: 'a', hypothesis: 'x' }, { premise: 'b', hypothesis: 'x' }];
    const first = await ReadingCache.open(path, { id: 'openai:m@http://127.0.0.1:1/v1', version: 'v1' });
    const wrapped = first.entailment(judge(new Set(['b'])));
    await wrapped.predict(pairs);
    assert.equal(wrapped.reviewOf?.(pairs[1]!), "the judge's answer is empty", 'the review is passed through');
    const again = await ReadingCache.open(path, { id: 'openai:m@http://127.0.0.1:1/v1', version: 'v1' });
    assert.equal(again.size, 1, 'the unreadable reading was not kept');
    asked = 0;
    await again.entailment(judge(new Set())).predict(pairs);
    assert.equal(asked, 1, 'only the unreadable pair is asked again');
    for (const other of [{ id: 'openai:m@http://127.0.0.1:2/v1', version: 'v1' }, { id: 'openai:m@http://127.0.0.1:1/v1', version: 'v2' }]) {
      assert.equal((await ReadingCache.open(join(dir, 'readings.jsonl'), other)).size, 0, `${other.id} ${other.version}: nothing reused`);
      await (await ReadingCache.open(path, { id: 'openai:m@http://127.0.0.1:1/v1', version: 'v1' })).entailment(judge(new Set())).predict(pairs);
    }
  });
});

describe('an LLM judge whose replies cannot be read (loopback server)', () => {
  let root: string;
  let home: string;
  let openai: FakeServer;
  const saved = { dir: process.env.VERACITE_MODELS_DIR, key: process.env[KEY_VAR] };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'veracite-llm-unreadable-'));
    home = join(root, 'home');
    process.env.VERACITE_MODELS_DIR = home;
    process.env[KEY_VAR] = 'sk-test-unreadable';
    const { gold, oracle } = await sampleOracle();
    openai = await startFakeOpenAi({ gold, oracle });
    await runCli(['models', 'add', 'judge-u', '--engine', 'openai', '--base-url', `${openai.url}/v1`, '--model', 'fake-judge', '--api-key-env', KEY_VAR]);
  });
  after(async () => {
    await openai.close();
    await rm(root, { recursive: true, force: true });
    if (saved.dir === undefined) delete process.env.VERACITE_MODELS_DIR;
    else process.env.VERACITE_MODELS_DIR = saved.dir;
    if (saved.key === undefined) delete process.env[KEY_VAR];
    else process.env[KEY_VAR] = saved.key;
    takeJudgeUsage();
  });

  it('calibration: refused while every reply is unreadable; the fixed server is calibrated on a fresh reading, not the refused one', async () => {
    openai.options.content = SORRY;
    const logs: string[] = [];
    await assert.rejects(calibrateProfile({ name: 'judge-u', home, limit: LIMIT, command: 'test', log: (l) => logs.push(l) }), { name: 'CalibrationRefusedError' });
    const readings = join(home, 'judge-u', READINGS_FILE);
    assert.ok(existsSync(`${readings}.refused`), `the refused run's readings are moved aside: ${logs.join('\n')}`);
    assert.ok(logs.some((l) => /moved to .*\.refused: the next run reads every pair afresh/.test(l)));
    delete openai.options.content;
    const before = openai.answered;
    const profile = await calibrateProfile({ name: 'judge-u', home, limit: LIMIT, command: 'test' });
    assert.ok(profile.figures['snli-sample accuracy']!.value > 0.9, JSON.stringify(profile.figures));
    assert.ok(openai.answered - before > LIMIT.snli, 'the NLI sample was read again from the server');
    takeJudgeUsage();
  });

  const audit = (out: string, html: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const args = [...cliEntryArgs(), 'audit', 'data/samples/audit/Breast_cancer_risk_factors.txt', '--sources', 'data/samples/audit/sources', '--no-index', '--no-recommend', '--profile', 'judge-u', '--limit', '3', '--out', out, '--html', html];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, VERACITE_MODELS_DIR: home } });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('audit (its own process): every scored citation needs review, counted in the summary, the JSON and the HTML; exit 69', async () => {
    assert.ok(existsSync(join(home, 'judge-u', PROFILE_FILE)), 'calibrated by the test before');
    openai.options.content = SORRY;
    try {
      const out = join(root, 'unread.json');
      const html = join(root, 'unread.html');
      const r = await audit(out, html);
      assert.equal(r.code, EXIT.UNAVAILABLE, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, /^veracite: none of the \d+ LLM judge replies could be read: nothing was judged \(every pair needs review\); check the judge's server and model \(exit 69\)$/m);
      const report = JSON.parse(await readFile(out, 'utf8')) as AuditReport;
      const scored = report.citations.filter((c) => c.verification);
      assert.ok(scored.length > 0, 'some citations were scored');
      for (const c of scored) {
        assert.equal(c.band?.band, 'needs-review', `#${c.index + 1}: ${JSON.stringify(c.band)}`);
        assert.equal(c.decision?.band, 'needs-review');
        assert.equal(c.decision?.tag, undefined, 'no tag proposed');
        assert.equal(c.verification!.review?.reason, 'judge');
        assert.match(c.band!.reason, /the judge's reading of this source cannot be trusted: the judge's answer does not start with SUPPORTED/);
      }
      assert.equal(report.summary.judgeUnreadable, scored.length);
      assert.equal(report.summary.byBand?.supported, undefined, 'nothing is supported');
      assert.equal(report.summary.byBand?.['not-supported'], undefined, 'nothing is not supported');
      assert.match(r.stdout, new RegExp(`^  judge could not answer for ${scored.length} citations? \\(its reply could not be read\\): needs review`, 'm'));
      assert.match(await readFile(html, 'utf8'), new RegExp(`data-judge-unreadable="${scored.length}">judge could not answer \\(needs review\\): ${scored.length}<`));
    } finally {
      delete openai.options.content;
    }
  });

  it('check --pairs (a batch, its own process): the summary counts the pairs the judge could not answer for; exit 69', async () => {
    openai.options.content = SORRY;
    try {
      const pairs = join(root, 'pairs.jsonl');
      const src = (f: string) => fileURLToPath(new URL(`../data/samples/audit/sources/${f}`, import.meta.url));
      await writeFile(pairs, [
        JSON.stringify({ id: 'c2', claim: 'Women who weighed more at birth have a somewhat higher risk of breast cancer in adulthood.', source: src('scifact-16322674.txt') }),
        JSON.stringify({ id: 'c18', claim: 'Loss of Scribble cooperates with the c-myc oncogene to transform epithelial cells by blocking apoptosis.', source: src('scifact-45638119.txt') }),
      ].join('\n') + '\n');
      const out = join(root, 'checks.jsonl');
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [...cliEntryArgs(), 'check', '--pairs', pairs, '--out', out, '--no-index', '--no-recommend', '--profile', 'judge-u', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, VERACITE_MODELS_DIR: home } });
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        child.once('exit', (code) => resolve({ code, stderr }));
      });
      assert.equal(r.code, EXIT.UNAVAILABLE, r.stderr);
      assert.match(r.stderr, /^checked 2 pairs \(0 already in [^)]*\) -> .*; the judge could not answer for 2 of them \(needs review\)$/m);
      const records = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(records.length, 2);
      for (const rec of records) assert.match(JSON.stringify(rec), /"band":"needs-review"/, JSON.stringify(rec).slice(0, 400));
    } finally {
      delete openai.options.content;
    }
  });

  it('the same audit with the judge answering: exit 0, no unreadable count (its unreadable replies were not cached)', async () => {
    const out = join(root, 'read.json');
    const r = await audit(out, join(root, 'read.html'));
    assert.equal(r.code, 0, `exit ${r.code}\n${r.stderr}`);
    const report = JSON.parse(await readFile(out, 'utf8')) as AuditReport;
    assert.equal(report.summary.judgeUnreadable, undefined);
    assert.ok(report.citations.every((c) => c.verification?.review?.reason !== 'judge'));
  });
});
