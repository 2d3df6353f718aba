/**
 * `verify` reads the one decision (issue 36, item 1): each document its evidence comes from carries the band,
 * the probability of support and the reason `check` gives the same (claim, source) pair, and its label agrees
 * with a decisive finding (REFUTES, never SUPPORTS). Two parts:
 *
 *   - the shipped audit sample (data/samples/audit, its labels): each citation's claim verified against its
 *     cited abstract in an index of the SciFact sample (which holds the twelve sources), as `veracite verify`
 *     builds its answer (Veracite.decideDocuments), and the same pair checked (Veracite.check, the path of
 *     `veracite check` and POST /v1/citations/check): the same band, number, tag and finding. (The audit gives
 *     a citation the same decision as `check` with its context: test/one-decision.test.ts.)
 *   - the issue's own examples through the CLI, on the real abstracts: a changed figure (37.5% against 75%, in
 *     a sentence verify's evidence scorer ranks below its top five), a reversed direction ("speeds up
 *     methylation drift" against "delays"/"attenuation"), "17 years younger" against 7; each beside a control
 *     that states the source's own figure or direction, which must not be refuted.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Veracite } from '../src/app/veracite.js';
import type { SetLabel } from '../src/eval/citation-set.js';
import type { Verdict } from '../src/verify/types.js';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

const SAMPLE = join(import.meta.dirname, '..', 'data', 'samples', 'audit');
const CORPUS = join(import.meta.dirname, '..', 'data', 'samples', 'scifact', 'corpus.jsonl');

function veracite(args: string[]): string {
  const r = spawnSync(process.execPath, [...cliEntryArgs(), ...args], { encoding: 'utf8', timeout: 600_000, env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, `veracite ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const jsonl = async <T>(path: string): Promise<T[]> => (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);

describe('verify reads the same decision as check (issue 36)', () => {
  let dir: string;
  let index: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-verify-decision-'));
    index = join(dir, 'index');
    const writer = await Veracite.open({ index: { dir: index } }, { create: true });
    await writer.ingest(CORPUS, { format: 'scifact' });
    await writer.close();
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every sample citation: verify against the cited abstract gives check\'s band, number, tag and finding; a finding is never under SUPPORTS', async (t) => {
    const labels = await jsonl<SetLabel & { claim: string; source: string }>(join(SAMPLE, 'labels.jsonl'));
    const vc = await Veracite.open({ index: { dir: index } });
    try {
      const verifier = await vc.verifier();
      let refutedByFinding = 0;
      let decided = 0;
      for (const l of labels) {
        const id = l.source.split(':').pop()!;
        const v = await vc.decideDocuments(await verifier.verifyAgainst(l.claim, [id]));
        const mine = v.documentDecisions?.find((d) => d.docId === id);
        if (!mine) {
          // Only a document below the verdict's relevance gate (the verdict takes no side on it) goes undecided.
          const best = Math.max(...v.evidence.filter((e) => e.docId === id).map((e) => e.score));
          assert.ok(best < (verifier.config.verdict.relevanceThreshold ?? 0), `#${l.citation}: verify gives no decision for its cited abstract ${id} (relevance ${best})`);
          assert.notEqual(v.label, 'SUPPORTS', `#${l.citation}`);
          continue;
        }
        decided++;
        const [doc] = await verifier.store.getDocuments([id]);
        const c = await vc.check({ claim: l.claim, source: { document: doc! }, suggestions: 0 });
        const want = c.audit.decision!;
        assert.equal(mine.decision.band, want.band, `#${l.citation} band`);
        assert.equal(mine.decision.probability?.toFixed(6), want.probability?.toFixed(6), `#${l.citation} probability`);
        assert.equal(!!mine.decision.tag, !!want.tag, `#${l.citation} tag`);
        assert.equal(mine.decision.finding, want.finding, `#${l.citation} finding`);
        // A decisive finding in a document the verdict takes a side on refutes the claim.
        if (mine.decision.finding && mine.relevant) {
          assert.equal(v.label, 'REFUTES', `#${l.citation}: "${mine.decision.finding}" under ${v.label}`);
          refutedByFinding++;
        }
        if (l.label === 'not_supported') assert.notEqual(v.label, 'SUPPORTS', `#${l.citation} (not supported) verified SUPPORTS`);
      }
      // The sample's changed-figure, reversed and negated citations (#5, #13, #15, #22) state their conflict in words.
      t.diagnostic(`${decided} of ${labels.length} cited abstracts decided by verify as check decides them; ${refutedByFinding} refuted by a decisive finding`);
      assert.ok(refutedByFinding >= 4, `${refutedByFinding} refuted by a finding`);
      assert.ok(decided >= 18, `${decided} of ${labels.length} cited abstracts decided`);
    } finally {
      await vc.close();
    }
  });

  it("the issue's examples through the CLI: verify and check both refute a changed figure, a reversed direction and '17 years younger'; the controls are not refuted", async () => {
    const abstracts = new Map((await jsonl<{ doc_id: number; title: string; abstract: string[] }>(CORPUS)).map((d) => [String(d.doc_id), d]));
    const cases = [
      { id: 'figure', doc: '5956380', claim: 'PPM1D mutations were found in 75% of the brainstem gliomas that harbored H3F3A mutations.', refuted: /37\.5 percent/ },
      { id: 'figure-control', doc: '5956380', claim: 'PPM1D mutations were found in 37.5% of the brainstem gliomas that harbored H3F3A mutations.' },
      { id: 'direction', doc: '22038539', claim: 'Caloric restriction speeds up methylation drift.', refuted: /decreased; the claim says it increases/ },
      { id: 'direction-control', doc: '22038539', claim: 'Caloric restriction slows down age-related methylation drift.' },
      { id: 'years', doc: '22038539', claim: 'In rhesus monkeys on caloric restriction, blood methylation age appeared 17 years younger than chronologic age.', refuted: /7 years/ },
      { id: 'years-control', doc: '22038539', claim: 'In rhesus monkeys on caloric restriction, blood methylation age appeared 7 years younger than chronologic age.' },
    ];
    await writeFile(join(dir, 'claims.jsonl'), cases.map((c) => JSON.stringify({ id: c.id, claim: c.claim })).join('\n'));
    veracite(['verify', '--claims', join(dir, 'claims.jsonl'), '--out', join(dir, 'verdicts.jsonl'), '--index', index, '--quiet']);
    const verdicts = new Map((await jsonl<Verdict & { id: string }>(join(dir, 'verdicts.jsonl'))).map((v) => [v.id, v]));
    // check reads the same abstract, saved as a page (its title, then its sentences).
    for (const c of cases) await writeFile(join(dir, `${c.doc}.txt`), `${abstracts.get(c.doc)!.title}\n\n${abstracts.get(c.doc)!.abstract.join(' ')}\n`);
    await writeFile(join(dir, 'pairs.jsonl'), cases.map((c) => JSON.stringify({ id: c.id, claim: c.claim, source: `${c.doc}.txt` })).join('\n'));
    veracite(['check', '--pairs', join(dir, 'pairs.jsonl'), '--out', join(dir, 'checks.jsonl'), '--no-index', '--quiet']);
    const checks = new Map((await jsonl<{ id: string; decision: { band: string; finding?: string } | null }>(join(dir, 'checks.jsonl'))).map((r) => [r.id, r]));
    for (const c of cases) {
      const v = verdicts.get(c.id)!;
      const d = v.documentDecisions?.find((x) => x.docId === c.doc);
      const k = checks.get(c.id)!;
      assert.ok(d, `${c.id}: verify gives no decision for ${c.doc}`);
      if (c.refuted) {
        assert.equal(v.label, 'REFUTES', `${c.id}: verify ${v.label}`);
        assert.equal(d.decision.band, 'not-supported', `${c.id}: verify's document band`);
        assert.match(d.decision.finding ?? '', c.refuted, `${c.id}: verify's finding`);
        assert.equal(k.decision?.band, 'not-supported', `${c.id}: check's band`);
        assert.match(k.decision?.finding ?? '', c.refuted, `${c.id}: check's finding`);
      } else {
        assert.notEqual(v.label, 'REFUTES', `${c.id}: verify refutes the source's own statement (${JSON.stringify(v.findings)})`);
        assert.equal(d.decision.finding, undefined, `${c.id}: verify's finding`);
        assert.notEqual(k.decision?.band, 'not-supported', `${c.id}: check's band`);
        assert.equal(k.decision?.finding, undefined, `${c.id}: check's finding`);
      }
    }
  });
});
