/**
 * A newcomer's first hour, as a test: a fresh clone of this repository at HEAD, the README's set-up
 * command, then its offline examples ("Try it offline"), each command taken from README.md itself (so
 * the README and this test cannot drift apart) and its output checked.
 *
 * node_modules: the clone gets a hard-linked copy of this checkout's node_modules (`cp -al`: a second
 * or two, no extra disk), then runs the README's `npm install` with --offline. A fresh download would
 * take minutes and need the registry; a symlink does not work (npm replaces a symlinked node_modules
 * and reinstalls from the network). With the tree complete, npm installs nothing and runs the
 * project's `prepare` build, so what is checked is the install's own output (no EBADENGINE, no error)
 * and that a clone builds and runs from its committed files alone. (npm never edits an installed
 * package's files in place, so the links cannot change this checkout's node_modules.)
 *
 * Only committed files are in the clone: uncommitted work is not tested here.
 */
import assert from 'node:assert/strict';
import { execFile as execFileCb, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { AuditReport } from '../src/audit/types.js';
import { assertOneLabel } from './helpers/one-label.js';

const execFile = promisify(execFileCb);
const ROOT = join(import.meta.dirname, '..');

/** Why this cannot run here (no git checkout, no node_modules), or undefined. */
function unavailable(): string | undefined {
  const git = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, encoding: 'utf8' });
  if (git.status !== 0) return 'not a git checkout: the newcomer test clones the repository';
  if (!existsSync(join(ROOT, 'node_modules', '.package-lock.json'))) return 'node_modules is not installed here';
  return undefined;
}

/** The commands of the first ```bash block after `heading` in README.md. */
export function readmeCommands(readme: string, heading: string): string[] {
  const at = readme.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README.md has no "${heading}" section`);
  const block = /```bash\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) throw new Error(`README.md: no bash block under "${heading}"`);
  return block[1]!
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

interface Ran {
  code: number;
  out: string;
}

const skip = unavailable();

describe('newcomer: a fresh clone, the README set-up and its offline examples', { skip: skip ?? false }, () => {
  let dir: string;
  let clone: string;
  let offline: string[] = [];

  /** Runs a README line in the clone with bash, as a newcomer would paste it. */
  async function sh(line: string, timeoutMs = 600_000): Promise<Ran> {
    try {
      const { stdout, stderr } = await execFile('bash', ['-c', line], { cwd: clone, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
      return { code: 0, out: `${stdout}${stderr}` };
    } catch (e) {
      const x = e as { code?: number; stdout?: string; stderr?: string; message: string };
      return { code: typeof x.code === 'number' ? x.code : 1, out: `${x.stdout ?? ''}${x.stderr ?? ''}${x.message}` };
    }
  }

  /**
   * An offline example from the README, run through the clone's own bin: `npx veracite` resolves to it,
   * but each npx start costs seconds of npm start-up on a loaded machine (the set-up test runs npx itself).
   */
  function example(prefix: string): string {
    const line = offline.find((l) => l.startsWith(prefix));
    if (!line) throw new Error(`README "Try it offline" has no line starting "${prefix}": ${offline.join(' | ')}`);
    return line.replace(/^npx veracite /, 'node bin/veracite.js ');
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'veracite-newcomer-'));
    clone = join(dir, 'veracite');
    await execFile('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
    await execFile('cp', ['-al', join(ROOT, 'node_modules'), join(clone, 'node_modules')]);
    offline = readmeCommands(await readFile(join(clone, 'README.md'), 'utf8'), '## Try it offline');
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('set-up: the README command installs without engine warnings, builds, and the demo runs', async () => {
    const [setup] = readmeCommands(await readFile(join(clone, 'README.md'), 'utf8'), '## Set-up: two commands');
    assert.equal(setup, 'ONNXRUNTIME_NODE_INSTALL=skip npm install && npx veracite demo');
    // Offline, and without the audit/fund calls to the registry: the tree is already complete.
    const run = await sh(setup!.replace('npm install', 'npm install --offline --no-audit --no-fund'), 300_000);
    assert.equal(run.code, 0, run.out);
    assert.doesNotMatch(run.out, /EBADENGINE|npm (error|ERR!)/, run.out);
    assert.ok(existsSync(join(clone, 'dist', 'cli', 'entry.js')), 'npm install built dist/ (prepare)');
    assert.match(run.out, /indexed 1000 abstracts -> \d+ passages/);
    assert.match(run.out, /BM25 on 100 sample claims \(setting: retrieval[^)]*\): nDCG@10 0\.\d{3}, Recall@100 0\.\d{3}/);
    // What a newcomer can trust (issue 36): agreement with gold over the sample claims and the sample audit's bands, then three examples by a stated rule.
    assert.match(run.out, /^ {2}gold \\ verdict +SUPPORTS +REFUTES +NOT ENOUGH INFO$/m, 'the verdicts\' own label names, as everywhere else');
    assert.match(run.out, /^ {2}agreement \d+ of \d+ \(\d+%; always answering (SUPPORTS|REFUTES|NOT ENOUGH INFO) would get \d+%\)$/m);
    assert.match(run.out, /^ {2}bands right \d+ of 22; not supported banded supported: 0;/m);
    assert.match(run.out, /Three examples, picked by a fixed rule: the first sample claim of each gold label, in file order \(oracle setting[^)]*\):/);
    // Which setting each figure is: the agreement is the oracle setting, not verify --claims' open one.
    assert.match(run.out, /^ {2}setting: oracle \(each claim given the abstract it cites\)/m);
    assert.equal((run.out.match(/^ {2}(SUPPORTS|REFUTES|NOT ENOUGH INFO) \(confidence \d\.\d\d\), gold (SUPPORTS|REFUTES|NOT ENOUGH INFO)/gm) ?? []).length, 3, 'three examples, each beside its gold label');
    assert.ok(existsSync(join(clone, '.veracite', 'demo')), 'the demo index the examples use');
  });

  it('search: five documents ranked by BM25, the vitamin D abstract first', async () => {
    const run = await sh(example('npx veracite search '));
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /^5 documents for "vitamin D deficiency increases fracture risk" \(bm25/m);
    assert.equal((run.out.match(/^ {2}\d\. \[\d+\.\d{3}\] /gm) ?? []).length, 5);
    assert.match(run.out, /^ {2}1\. \[\d+\.\d{3}\] Environmental factors that influence the cutaneous production of vitamin D \(275294\)/m);
  });

  it('verify a claim: a verdict with its confidence, evidence sentences and provenance', async () => {
    const run = await sh(example('npx veracite verify "'));
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /^(SUPPORTS|REFUTES|NOT ENOUGH INFO) \(confidence \d\.\d\d[^)]*\): Vitamin D deficiency increases the risk of fractures\./m);
    assert.match(run.out, /^ {2}evidence \(score: how likely the sentence is evidence for the claim, 0-1\):\n {3}\d\.\d{3} .*\[(✓ supports|✗ contradicts|– neutral)\]/m);
    assert.match(run.out, /^ {3}\[✓ supports\] more likely than not, the sentence states the claim$/m, 'the highlighting legend');
    assert.match(run.out, /provenance: snapshot \S+ \(index id @ table versions[^)]*\), config [0-9a-f]+, models /);
    // What the deciding document names of the claim.
    assert.match(run.out, /^ {2}that document names (all \d+ of the claim's subject words|\d+ of the claim's \d+ subject words \(not: [^)]+\): read the verdict with care)$/m);
  });

  it('batch verify: the SciFact sample claims file, one verdict per claim', async () => {
    const run = await sh(example('npx veracite verify --claims '));
    assert.equal(run.code, 0, run.out);
    const lines = (await readFile(join(clone, 'verdicts.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { label?: string });
    assert.equal(lines.length, 100);
    assert.ok(lines.every((v) => ['SUPPORTS', 'REFUTES', 'NOT ENOUGH INFO'].includes(v.label ?? '')));
  });

  it('audit of the shipped sample: scored, flagged and suggested citations, offline', async () => {
    const run = await sh(example('npx veracite audit '));
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /Breast cancer risk factors: 24 citations in [\d.]+ s; sources: found 22, not-found 1, no-url 1; scored 22, flagged [1-9]\d* \([^)]+\), with suggestions [1-9]\d*/);
    const report = JSON.parse(await readFile(join(clone, 'audit.json'), 'utf8')) as {
      citations: { index: number; verification?: { flagged?: boolean }; recommendations?: { suggestions: { docId: string }[] } }[];
    };
    const labels = (await readFile(join(clone, 'data', 'samples', 'audit', 'labels.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { citation: number; label: string });
    const labelOf = new Map(labels.map((l) => [l.citation - 1, l.label]));
    const flagged = report.citations.filter((c) => c.verification?.flagged);
    assert.ok(flagged.some((c) => labelOf.get(c.index) === 'not_supported'), 'a not-supported citation is flagged');
    // The wrong-page citations (#18, #20): the abstract that does say it is suggested from the index.
    const suggested = (n: number) => report.citations[n - 1]!.recommendations?.suggestions.map((s) => s.docId) ?? [];
    assert.ok(suggested(18).includes('8774475'), `#18 suggestions: ${suggested(18).join(', ')}`);
    assert.ok(suggested(20).includes('24341590'), `#20 suggestions: ${suggested(20).join(', ')}`);
    const html = await readFile(join(clone, 'audit.html'), 'utf8');
    // One label per citation: the CLI list (--all), the tally, the JSON, the HTML report, the web page's and the gadget's code.
    await assertOneLabel(JSON.parse(await readFile(join(clone, 'audit.json'), 'utf8')) as AuditReport, run.out, html, clone);
    assert.match(html, /<h1>Citation audit: Breast cancer risk factors<\/h1>/);
    assert.match(html, /class="legend"/, 'the evidence highlighting is explained');
    // What a cited source leaves out of the claim, in words: why its probability of support is low.
    assert.match(html, /<div class="meta">It names (all \d+|\d+ of the claim(&#39;|')s \d+) /, 'and each suggested source');
    assert.match(html, /The source names (all \d+ of the claim(&#39;|')s subject words|\d+ of the claim(&#39;|')s \d+ subject words \(not: [^)]+\))\./);
    // The flag signal's two inputs, beside the probability: the NLI model's reading and the page's wording.
    assert.match(html, /NLI support 0\.\d{3} · page similarity 0\.\d{3}/);
  });

  it('check one citation: the wrong page is flagged and the abstract that says it suggested, as in the audit', async () => {
    const run = await sh(example('npx veracite check '));
    assert.equal(run.code, 0, run.out);
    // The same band as the audit gives this pair (citation #18), as its one label.
    const audit = JSON.parse(await readFile(join(clone, 'audit.json'), 'utf8')) as AuditReport;
    const band = audit.citations[17]!.band!;
    assert.ok(band.band === 'not-supported' || band.band === 'needs-review', band.band);
    assert.match(run.out, new RegExp(`^${band.label}( \\+ tag)?: Loss of Scribble cooperates`, 'm'));
    assert.match(run.out, /probability that the source supports the claim: 0\.\d{3} \(0-1/);
    assert.match(run.out, /better sources in the index \(probability of support\):\n\s+0\.\d{3} Deregulation of Scribble .*\(8774475\)/);
    assert.match(run.out, /provenance: snapshot \w+/);
  });

  it('the audit page shows the score distribution with the flag threshold', async () => {
    const html = await readFile(join(clone, 'audit.html'), 'utf8');
    assert.match(html, /<figure class="chart"><svg /);
    assert.match(html, /flag threshold \d/);
  });

  it('bare `veracite` is a usage error (64) that points to `veracite demo` and prints the exit codes', async () => {
    const run = await sh('node bin/veracite.js');
    assert.equal(run.code, 64, run.out);
    assert.match(run.out, /New here\? Run "veracite demo"/);
    assert.match(run.out, /Exit codes:\n {4}0 {2}done/);
  });

  it('a missing file is a missing input (66), an empty one bad data (65), each said in words', async () => {
    const missing = await sh('node bin/veracite.js audit no-such-article.wikitext --index .veracite/demo');
    assert.equal(missing.code, 66, missing.out);
    assert.match(missing.out, /^veracite: the document no-such-article\.wikitext: no such file/m);
    const empty = await sh(': > empty.txt && node bin/veracite.js audit empty.txt --index .veracite/demo');
    assert.equal(empty.code, 65, empty.out);
    assert.match(empty.out, /^veracite: the document empty\.txt is empty: nothing to read/m);
    const claims = await sh(': > empty.jsonl && node bin/veracite.js verify --claims empty.jsonl --index .veracite/demo');
    assert.equal(claims.code, 65, claims.out);
    assert.match(claims.out, /--claims empty\.jsonl is empty/);
  });

  it("`audit --help`'s first example checks something", async () => {
    const help = await sh('node bin/veracite.js audit --help');
    assert.equal(help.code, 0, help.out);
    const first = /^ {2}\$ (veracite audit .*?)(\s+#.*)?$/m.exec(help.out);
    assert.ok(first, help.out);
    const run = await sh(first[1]!.replace(/^veracite /, 'node bin/veracite.js '));
    assert.equal(run.code, 0, run.out);
    assert.doesNotMatch(run.out, /checked nothing/);
    const scored = /; scored (\d+),/.exec(run.out);
    assert.ok(scored && Number(scored[1]) > 0, run.out);
  });

  it('eval report: a self-contained page with charts from saved results', async () => {
    const run = await sh(example('npx veracite eval report '));
    assert.equal(run.code, 0, run.out);
    const html = await readFile(join(clone, 'eval-report.html'), 'utf8');
    assert.ok((html.match(/<svg /g) ?? []).length >= 4);
    assert.doesNotMatch(html, /<script/);
  });
});
