/**
 * Hard claims (issue 28): direction flips, negations, changed numbers and off-topic deciding documents, in
 * three styles (biomedical, encyclopedic, news), run through the CLI as a user runs them. Cases with
 * `"via": "verify"` are verified against an index of the shipped SciFact sample (`veracite verify --claims`);
 * cases with `"via": "check"` are checked against their source text (`veracite check --pairs`). The cases are
 * in test/cases/hard-claims.jsonl, each with where its source comes from.
 *
 * Right / wrong / abstained counts are printed per category and style (and recorded in docs/RESULTS-HISTORY.md).
 * Asserted: the categories the findings fix (direction flips and changed numbers) are right, and no control
 * case (a claim its source states) gets a decisive finding. The others are counted, not asserted: an
 * off-topic deciding document is the abstention work of issue 28.
 *
 * Scoring. verify: right when the label is the expected one; NOT ENOUGH INFO for a claim expected to be
 * supported or refuted is an abstention. check: right when a claim expected SUPPORTS is "supported" and any
 * other is "likely fails verification"; a status that says the source could not be judged is an abstention.
 *
 * VERACITE_HARD_CLAIMS_PROFILE=verifier (or another profile) runs both commands with `--profile` that engine, to
 * measure it on the same cases (RESULTS, issue 43); npm test runs the package's default engine.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Veracite } from '../src/app/veracite.js';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

interface Case {
  id: string;
  /** Which file (SETS). */
  set: SetName;
  style: 'biomedical' | 'encyclopedic' | 'news';
  category: 'direction' | 'negation' | 'number' | 'off-topic' | 'control';
  via: 'verify' | 'check';
  claim: string;
  expect: 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO';
  text?: string;
  from: string;
}

interface Outcome {
  c: Case;
  got: string;
  outcome: 'right' | 'wrong' | 'abstained';
  decisive: string[];
  /** The verdict was marked needs review (src/verify/review.ts): given, but with a warning to read the source. */
  review: boolean;
}

/**
 * Three sets, each written after the previous one's changes, so that each has a first run on rules it never
 * shaped (docs/RESULTS-HISTORY.md gives every first run):
 * - first: hard-claims.jsonl, written while the findings' rules were built (in-sample);
 * - second: hard-claims-second.jsonl, written after them (24 of 38 right on its first run; the faults it
 *   showed were then fixed, so it is no longer held out);
 * - third: hard-claims-third.jsonl, written after the second set's fixes (23 of 32 on its first run; then fixed
 *   in turn);
 * - fourth: hard-claims-fourth.jsonl, written after the third set's fixes: the rules have not been changed
 *   since its first run, so its count is the held-out figure for the rules as they are.
 */
const SETS = {
  first: join(import.meta.dirname, 'cases', 'hard-claims.jsonl'),
  second: join(import.meta.dirname, 'cases', 'hard-claims-second.jsonl'),
  third: join(import.meta.dirname, 'cases', 'hard-claims-third.jsonl'),
  fourth: join(import.meta.dirname, 'cases', 'hard-claims-fourth.jsonl'),
} as const;
type SetName = keyof typeof SETS;
/**
 * Right answers of the later sets now (docs/RESULTS-HISTORY.md); fewer is a regression. (Issue 36, numbers in words:
 * second 28 -> 29 with "ten countries", fourth 24 -> 25 with "three elementary schools".)
 */
const RIGHT_FLOOR: Record<Exclude<SetName, 'first'>, number> = { second: 29, third: 26, fourth: 25 };

const PROFILE = process.env.VERACITE_HARD_CLAIMS_PROFILE;
const engineArgs = PROFILE ? ['--profile', PROFILE] : [];

function veracite(args: string[]): string {
  const r = spawnSync(process.execPath, [...cliEntryArgs(), ...args], { encoding: 'utf8', timeout: 600_000, env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, `veracite ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const jsonl = async <T>(path: string): Promise<T[]> => (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);

describe('hard claims: direction flips, negations, changed numbers, off-topic documents (issue 28)', () => {
  let dir: string;
  let cases: Case[];
  const outcomes: Outcome[] = [];

  before(async () => {
    cases = (await Promise.all(Object.entries(SETS).map(async ([set, file]) => (await jsonl<Omit<Case, 'set'>>(file)).map((c) => ({ ...c, set }) as Case)))).flat();
    assert.equal(new Set(cases.map((c) => c.id)).size, cases.length, 'case ids are unique across both files');
    dir = await mkdtemp(join(tmpdir(), 'vc-hard-'));
    const index = join(dir, 'index');
    const writer = await Veracite.open({ index: { dir: index } }, { create: true });
    await writer.ingest('data/samples/scifact/corpus.jsonl', { format: 'scifact' });
    await writer.close();

    const verify = cases.filter((c) => c.via === 'verify');
    await writeFile(join(dir, 'claims.jsonl'), verify.map((c) => JSON.stringify({ id: c.id, claim: c.claim })).join('\n'));
    veracite(['verify', '--claims', join(dir, 'claims.jsonl'), '--out', join(dir, 'verdicts.jsonl'), '--index', index, '--quiet', ...engineArgs]);
    const verdicts = new Map((await jsonl<{ id: string; label: string; findings?: { decisive: boolean; message: string }[]; review?: unknown }>(join(dir, 'verdicts.jsonl'))).map((v) => [v.id, v]));
    for (const c of verify) {
      const v = verdicts.get(c.id);
      assert.ok(v, `no verdict for ${c.id}`);
      const outcome = v.label === c.expect ? 'right' : v.label === 'NOT ENOUGH INFO' ? 'abstained' : 'wrong';
      outcomes.push({ c, got: v.label, outcome, decisive: (v.findings ?? []).filter((f) => f.decisive).map((f) => f.message), review: !!v.review });
    }

    const check = cases.filter((c) => c.via === 'check');
    await writeFile(join(dir, 'pairs.jsonl'), check.map((c) => JSON.stringify({ id: c.id, claim: c.claim, text: c.text })).join('\n'));
    veracite(['check', '--pairs', join(dir, 'pairs.jsonl'), '--out', join(dir, 'checks.jsonl'), '--no-index', '--quiet', ...engineArgs]);
    const checks = new Map((await jsonl<{ id: string; band: string; flagged: boolean; supportLabel: string | null; findings?: { decisive: boolean; message: string }[]; review: unknown }>(join(dir, 'checks.jsonl'))).map((r) => [r.id, r]));
    for (const c of check) {
      const r = checks.get(c.id);
      assert.ok(r, `no check for ${c.id}`);
      // Judged: the source was read and banded; right: flagged (not supported, or a contradiction to review) exactly when the claim is not supported.
      const judged = r.band !== 'could-not-check';
      const right = (c.expect === 'SUPPORTS') === !r.flagged;
      outcomes.push({ c, got: `${r.band}${r.flagged ? ', flagged' : ''} (NLI ${r.supportLabel})`, outcome: !judged ? 'abstained' : right ? 'right' : 'wrong', decisive: (r.findings ?? []).filter((f) => f.decisive).map((f) => f.message), review: !!r.review });
    }
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const set of Object.keys(SETS) as SetName[]) {
    it(`${set}: has at least 30 hand-written cases in three styles, each category present`, () => {
      const mine = cases.filter((c) => c.set === set);
      assert.ok(mine.length >= 30, `${mine.length} cases`);
      assert.deepEqual([...new Set(mine.map((c) => c.style))].sort(), ['biomedical', 'encyclopedic', 'news']);
      for (const k of ['direction', 'negation', 'number', 'off-topic', 'control']) assert.ok(mine.some((c) => c.category === k), k);
      assert.equal(outcomes.filter((o) => o.c.set === set).length, mine.length);
    });

    it(`${set}: reports right / wrong / abstained per category and style`, (t) => {
      const mine = outcomes.filter((o) => o.c.set === set);
      const n = (xs: Outcome[], k: Outcome['outcome']) => xs.filter((o) => o.outcome === k).length;
      const review = (xs: Outcome[]) => xs.filter((o) => o.review);
      const line = (name: string, xs: Outcome[]) => `${name}: ${n(xs, 'right')} right, ${n(xs, 'wrong')} wrong, ${n(xs, 'abstained')} abstained (of ${xs.length}); marked needs review: ${review(xs).length} (${n(review(xs), 'wrong')} of them wrong)`;
      const lines = [line(`${set} cases, all`, mine)];
      for (const k of ['direction', 'negation', 'number', 'off-topic', 'control']) lines.push(line(`  ${k}`, mine.filter((o) => o.c.category === k)));
      for (const s of ['biomedical', 'encyclopedic', 'news']) lines.push(line(`  ${s}`, mine.filter((o) => o.c.style === s)));
      for (const v of ['verify', 'check']) lines.push(line(`  via ${v}`, mine.filter((o) => o.c.via === v)));
      for (const o of mine.filter((x) => x.outcome !== 'right')) lines.push(`  ${o.outcome}: ${o.c.id} (${o.c.category}, ${o.c.via}) expected ${o.c.expect}, got ${o.got}${o.review ? ', marked needs review' : ''}`);
      for (const l of lines) t.diagnostic(l);
      console.log(lines.join('\n'));
    });
  }

  it('the later sets: at least as many right as recorded', () => {
    for (const [set, floor] of Object.entries(RIGHT_FLOOR)) {
      const right = outcomes.filter((o) => o.c.set === set && o.outcome === 'right').length;
      assert.ok(right >= floor, `${set}: ${right} right, floor ${floor}`);
    }
  });

  it('direction flips and changed numbers are right, each with a decisive finding in words', () => {
    // The first set only: the later ones are counted (and held to their floors), not fitted to.
    const fixed = outcomes.filter((o) => o.c.set === 'first' && (o.c.category === 'direction' || o.c.category === 'number'));
    const wrong = fixed.filter((o) => o.outcome !== 'right').map((o) => `${o.c.id}: ${o.got}`);
    assert.deepEqual(wrong, [], 'direction flips and changed numbers');
    const silent = fixed.filter((o) => o.decisive.length === 0).map((o) => o.c.id);
    assert.deepEqual(silent, [], 'each says what the source states against the claim');
  });

  it('no control case (a claim its source states) gets a decisive finding', () => {
    const flagged = outcomes.filter((o) => o.c.category === 'control' && o.decisive.length).map((o) => `${o.c.id}: ${o.decisive.join('; ')}`);
    assert.deepEqual(flagged, []);
  });
});
