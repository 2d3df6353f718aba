/**
 * Exit codes by convention (util/exit-codes.ts, the one table), per command, with the CLI started as its
 * own process. Every case fails before a model loads or an index opens (or without one), so the file runs
 * in seconds: usage errors 64, bad or empty inputs 65, missing inputs 66; and each message says what to do.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT, EXIT_MEANINGS } from '../src/util/exit-codes.js';
import { exitCodeOf } from '../src/cli/exit-codes.js';
import { MissingIndexError } from '../src/store/missing-index.js';
import { SettingsError } from '../src/util/settings-error.js';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

const ROOT = join(import.meta.dirname, '..');

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

function veracite(args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliEntryArgs(), ...args], { cwd: ROOT, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } }, (e, out, err) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, out, err }),
    );
  });
}

describe('exit codes: one table, every command', () => {
  let dir: string;
  let empty: string;
  let blank: string;
  let missing: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-exit-'));
    empty = join(dir, 'empty.jsonl');
    blank = join(dir, 'blank.txt');
    missing = join(dir, 'no-such-file.txt');
    await writeFile(empty, '');
    await writeFile(blank, '  \n\n');
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the table has one meaning per code, and --help and the README print it', async () => {
    assert.deepEqual(
      EXIT_MEANINGS.map((m) => m.code),
      [0, 1, 64, 65, 66, 69, 70, 75, 130],
    );
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    for (const m of EXIT_MEANINGS) assert.ok(readme.includes(`| ${m.code} | \`${m.name}\` | ${m.meaning} |`), `README's table has ${m.code}`);
    const help = await veracite(['--help']);
    assert.equal(help.code, EXIT.OK, help.err);
    for (const m of EXIT_MEANINGS) assert.ok(help.out.includes(`${String(m.code).padStart(3)}  ${m.meaning}`), `--help shows ${m.code}`);
  });

  it('maps the modules\' errors: settings 64, missing index 66, a file not there 66, a refused connection 69, anything else 70', () => {
    assert.equal(exitCodeOf(new SettingsError('retrieval.mode', 'bad')), EXIT.USAGE);
    assert.equal(exitCodeOf(new SettingsError('--source', 'no such file', EXIT.NO_INPUT)), EXIT.NO_INPUT);
    assert.equal(exitCodeOf(new MissingIndexError('x', 'x: no index')), EXIT.NO_INPUT);
    assert.equal(exitCodeOf(Object.assign(new Error('open x'), { code: 'ENOENT' })), EXIT.NO_INPUT);
    assert.equal(exitCodeOf(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })), EXIT.UNAVAILABLE);
    const fromWorker = new Error('too deep');
    fromWorker.name = 'WikitextLimitError';
    assert.equal(exitCodeOf(fromWorker), EXIT.DATA, 'told by name, as a worker thread re-throws it');
    assert.equal(exitCodeOf(new TypeError('x is undefined')), EXIT.INTERNAL);
  });

  it('bare `veracite` is a usage error that points to `veracite demo`', async () => {
    const r = await veracite([]);
    assert.equal(r.code, EXIT.USAGE);
    assert.match(r.err, /New here\? Run "veracite demo": it builds a small index \(\.veracite\/demo\)/);
    assert.match(r.err, /Exit codes:/);
  });

  const cases: { name: string; args: () => string[]; code: number; says: RegExp }[] = [
    { name: 'an unknown command', args: () => ['chek'], code: EXIT.USAGE, says: /unknown command 'chek'/ },
    { name: 'audit: an unknown option', args: () => ['audit', '--bogus'], code: EXIT.USAGE, says: /unknown option '--bogus'/ },
    { name: 'audit: no such document', args: () => ['audit', missing, '--no-index'], code: EXIT.NO_INPUT, says: /no-such-file\.txt: no such file \(wikitext/ },
    { name: 'audit: an empty document', args: () => ['audit', blank, '--no-index'], code: EXIT.DATA, says: /blank\.txt is empty: nothing to read/ },
    { name: 'verify: neither a claim nor --claims', args: () => ['verify'], code: EXIT.USAGE, says: /give a claim, or --claims <file\.jsonl>/ },
    { name: 'verify: no such claims file', args: () => ['verify', '--claims', missing, '--index', join(dir, 'idx')], code: EXIT.NO_INPUT, says: /--claims .*no-such-file\.txt: no such file/ },
    { name: 'verify: an empty claims file', args: () => ['verify', '--claims', empty, '--index', join(dir, 'idx')], code: EXIT.DATA, says: /--claims .*empty\.jsonl is empty/ },
    { name: 'verify: no index there, and the demo named', args: () => ['verify', 'Vitamin D prevents fractures.', '--index', join(dir, 'idx')], code: EXIT.NO_INPUT, says: /no veracite index here; .*run "veracite demo" to build the demo index \(\.veracite\/demo/ },
    { name: 'search: --index names a file', args: () => ['search', 'vitamin D', '--index', blank], code: EXIT.NO_INPUT, says: /blank\.txt is a file, not an index folder: give --index the folder/ },
    { name: 'audit: a --sources folder not there', args: () => ['audit', 'data/samples/audit/Breast_cancer_risk_factors.txt', '--no-index', '--sources', join(dir, 'saved-pages')], code: EXIT.NO_INPUT, says: /--sources .*saved-pages: no such folder \(give the folder of saved pages/ },
    { name: 'search: no index there', args: () => ['search', 'vitamin D', '--index', join(dir, 'idx')], code: EXIT.NO_INPUT, says: /no veracite index here/ },
    { name: 'check: no such source', args: () => ['check', 'The tower is 26 metres tall.', '--source', missing, '--no-index'], code: EXIT.NO_INPUT, says: /--source: cannot read .*no such file/ },
    { name: 'check: an empty source', args: () => ['check', 'The tower is 26 metres tall.', '--source', blank, '--no-index'], code: EXIT.DATA, says: /--source: .*blank\.txt is empty/ },
    { name: 'check: an empty pairs file', args: () => ['check', '--pairs', empty, '--no-index'], code: EXIT.DATA, says: /--pairs .*empty\.jsonl is empty/ },
    { name: 'check: a claim and --pairs', args: () => ['check', 'x', '--pairs', empty], code: EXIT.USAGE, says: /give either a claim with --source, or --pairs/ },
    { name: 'index: a corpus that is not there', args: () => ['index', missing, '--index', join(dir, 'new-idx')], code: EXIT.NO_INPUT, says: /corpus path not found: .*no-such-file\.txt \(give a JSONL file/ },
    { name: 'index: nothing to index', args: () => ['index', '--index', join(dir, 'idx')], code: EXIT.USAGE, says: /give the corpus files or folders to index/ },
    { name: 'eval: --task beir without --dir', args: () => ['eval', 'retrieval', '--task', 'beir', '--index', join(dir, 'idx')], code: EXIT.USAGE, says: /--task beir needs --dir/ },
    { name: 'serve: a port out of range', args: () => ['serve', '--port', '70000'], code: EXIT.USAGE, says: /--port must be 0\.\.65535/ },
    { name: 'models: a profile not installed', args: () => ['models', 'info', 'no-such-profile', '--models-dir', dir], code: EXIT.NO_INPUT, says: /profile "no-such-profile" is not installed/ },
  ];

  it('an audit that could read none of its sources exits 1 (PARTIAL), its first line saying why and how to check them', async () => {
    const article = join(dir, 'Tower.txt');
    await writeFile(article, "'''Tower''' is a landmark.\n\nThe tower is 26 metres tall.<ref>[https://example.org/tower Tower survey]</ref>\n");
    const r = await veracite(['audit', article, '--no-index', '--quiet']);
    assert.equal(r.code, EXIT.PARTIAL, r.err + r.out);
    assert.match(r.out, /^checked nothing: the 1 citation's source was not read \(not-found 1\); to check them: fetch the source \(--fetch\)/m);
  });

  it('per command: usage 64, bad or empty input 65, missing input 66, each with a message that says what to do', async () => {
    // Started together: each is a process that fails before any model loads.
    const runs = await Promise.all(cases.map((c) => veracite(c.args())));
    cases.forEach((c, i) => {
      const r = runs[i]!;
      assert.equal(r.code, c.code, `${c.name}: exit ${r.code}\n${r.err}`);
      assert.match(r.err, c.says, c.name);
    });
  });
});
