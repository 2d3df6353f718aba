/**
 * `eval audit` on a labelled article: the shipped Bodmin sample (wikitext), stand-in pages for 20 of its
 * cited URLs in a --sources folder, and an editor's labels for those 20 (test/fixtures/eval-audit/). The
 * lexical scorer keeps it fast; the figures must follow from the audit's own flags and scores.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadArticleInput } from '../audit/article-input.js';
import { CitationAuditor } from '../audit/audit.js';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import type { AuditInput, ClaimText } from '../audit/types.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { SnapshotFolder } from '../sources/snapshot-folder.js';
import { writeKiltWafer } from '../wiki/write-kilt-wafer.js';
import { DataProblemsError } from './data-problems.js';
import { runAuditEval, type AuditEvalResult } from './run-audit-eval.js';

const ARTICLE = 'data/samples/wikitext/Bodmin.txt';
const FIXTURE = 'test/fixtures/eval-audit';
const LABELS = `${FIXTURE}/bodmin-labels.jsonl`;
const THRESHOLD = 0.3;

describe('eval audit: an editor-labelled article as an evaluation', () => {
  let dir: string;
  let input: AuditInput;
  let snapshots: SnapshotFolder;
  const auditor = (claimText: ClaimText = 'sentence') =>
    new CitationAuditor({ scorer: new LexicalPairScorer(), resolver: new SourceResolver({ snapshots }), flag: { threshold: THRESHOLD, source: 'test' } }, { claimText });
  let result: AuditEvalResult;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-eval-audit-'));
    input = await loadArticleInput(ARTICLE);
    snapshots = await SnapshotFolder.open(`${FIXTURE}/bodmin-sources`);
    result = (await runAuditEval({ auditor: auditor(), input, labels: LABELS, unlabelled: 'skip' })).result;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('audits the labelled citations from the saved sources and names the result after the article', async () => {
    const labelled = (await readFile(LABELS, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { citation: number; label: string });
    assert.equal(result.name, 'Bodmin');
    assert.equal(result.task, 'audit-eval');
    assert.equal(result.n, 20);
    assert.deepEqual(result.citations.map((r) => r.citation), labelled.map((l) => l.citation));
    assert.deepEqual(result.citations.map((r) => r.label), labelled.map((l) => l.label));
    assert.deepEqual(result.labelCounts, { supported: 12, partially_supported: 4, not_supported: 4 });
    assert.equal(result.scored, 20, 'every labelled citation has its page in the --sources folder');
    assert.equal(result.unlabelled.length, 49 - 20);
    assert.equal(result.claimText, 'sentence');
  });

  it('flag precision and recall at the threshold follow from the flags, for both definitions', () => {
    const flagged = result.citations.filter((r) => r.flagged);
    assert.ok(flagged.every((r) => r.signal! <= THRESHOLD));
    assert.ok(result.citations.filter((r) => !r.flagged).every((r) => r.signal! > THRESHOLD));
    for (const [d, positive] of [['not_supported', ['not_supported']], ['not_or_partially_supported', ['not_supported', 'partially_supported']]] as const) {
      const r = result.definitions[d];
      const tp = flagged.filter((x) => (positive as readonly string[]).includes(x.label)).length;
      const pos = result.citations.filter((x) => (positive as readonly string[]).includes(x.label)).length;
      assert.equal(r.positives, pos);
      assert.equal(r.atThreshold!.threshold, THRESHOLD);
      assert.equal(r.atThreshold!.flagged, flagged.length);
      assert.equal(r.atThreshold!.truePositives, tp);
      assert.equal(r.atThreshold!.precision, flagged.length ? tp / flagged.length : 0);
      assert.equal(r.atThreshold!.recall, tp / pos);
      // The curve ends with every scored citation flagged and every positive found.
      const last = r.curve.at(-1)!;
      assert.equal(last.flagged, 20);
      assert.equal(last.recall, 1);
      assert.ok(r.metrics.rocAuc > 0.5, `${d}: the lexical signal separates the labels better than chance (AUC ${r.metrics.rocAuc})`);
    }
    // The home page and map page citations (#3, #5) are unsupported and flagged.
    assert.ok(flagged.some((r) => r.citation === 3) && flagged.some((r) => r.citation === 5));
  });

  it('reports the baselines the data allows: URL depth and the article\'s own failed-verification tags', () => {
    assert.deepEqual(result.baselines.map((b) => b.name), ['url-depth', 'failed-verification tag']);
    assert.equal(result.baselines[0]!.n, 20);
    assert.equal(result.baselines[1]!.metrics.not_supported.atFlag!.flagged, 0, 'Bodmin has no {{failed verification}} tag on these citations');
  });

  it('claimText chooses what is verified; the report keeps the whole sentence and its prefix', async () => {
    const prefix = (await runAuditEval({ auditor: auditor('prefix'), input, labels: LABELS, unlabelled: 'skip' })).result;
    assert.equal(prefix.claimText, 'prefix');
    const first = (r: AuditEvalResult) => r.citations.find((c) => c.citation === 1)!;
    assert.equal(first(result).claim, 'Bodmin (Bosvena) is a civil parish and historic town in Cornwall, England, United Kingdom.');
    assert.equal(first(result).claimPrefix, 'Bodmin (Bosvena');
    assert.equal(first(prefix).claim, first(result).claim);
    // The place-name list supports the prefix better than the whole sentence.
    assert.ok(first(prefix).signal! > first(result).signal!);
    // Sentence-final citations are verified on the same text either way.
    const same = result.citations.filter((c) => !c.claimPrefix);
    assert.deepEqual(same.map((c) => c.signal), prefix.citations.filter((c) => !c.claimPrefix).map((c) => c.signal));
  });

  it('a WAFER export of the article, labelled by citation id, gives the same evaluation', async () => {
    const wafer = join(dir, 'bodmin.jsonl');
    await writeKiltWafer(wafer, input.citations.map((c) => ({ ...c, source: { raw: '', ...c.source } })));
    const waferInput = await loadArticleInput(wafer);
    const labels = join(dir, 'by-id.jsonl');
    const rows = (await readFile(LABELS, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { citation: number; label: string });
    await writeFile(labels, rows.map((r) => JSON.stringify({ citation: `Bodmin#${r.citation - 1}`, label: r.label })).join('\n') + '\n');
    const r = (await runAuditEval({ auditor: auditor(), input: waferInput, labels, unlabelled: 'skip' })).result;
    assert.equal(r.name, 'bodmin');
    assert.deepEqual(r.citations.map((c) => [c.id, c.claim, c.claimPrefix, c.label, c.signal]), result.citations.map((c) => [c.id, c.claim, c.claimPrefix, c.label, c.signal]));
    assert.deepEqual(r.definitions.not_supported.atThreshold, result.definitions.not_supported.atThreshold);
  });

  it('a bad label file stops before any audit, listing every problem with its line', async () => {
    const path = join(dir, 'bad-labels.jsonl');
    await writeFile(
      path,
      [
        '{"citation": 1, "label": "supported"}',
        '{"citation": 3, "label": "dubious"}',
        '{"citation": 99, "label": "supported"}',
        '{"citation": "Bodmin#400", "label": "supported"}',
        '{"citation": "4", "label": "supported"}',
        '{"citation": 1, "label": "not_supported"}',
        '{"citation": 6, "label": "supported", "claim": "Bodmin is twinned with Grass Valley."}',
        'not json',
        '{"label": "supported"}',
      ].join('\n') + '\n',
    );
    let audits = 0;
    const counting = { auditArticle: async (...args: Parameters<CitationAuditor['auditArticle']>) => ((audits += 1), auditor().auditArticle(...args)) };
    const err = await runAuditEval({ auditor: counting, input, labels: path }).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof DataProblemsError, String(err));
    assert.equal(audits, 0);
    const at = (line: number, text: string) => assert.ok(err.problems.some((p) => p.line === line && p.problem.includes(text)), `line ${line}: ${text}\n${err.message}`);
    at(2, 'unknown label "dubious"');
    at(3, 'no citation #99 (it has 49');
    at(4, 'no citation with id "Bodmin#400"');
    at(5, 'a position is written as a number: 4');
    at(6, 'labelled twice (also on line 1)');
    at(7, 'does not match citation #6');
    at(8, 'invalid JSON');
    at(9, 'missing');
    // Without 'skip', every citation without a label is listed too.
    assert.ok(err.problems.some((p) => p.line === 0 && /citation #2 \(Bodmin#1\) .* has no label/.test(p.problem)), err.message);
    assert.match(err.message, /Accepted labels/);
  });

  it('label spellings are forgiving, and a matching claim is accepted as sentence or prefix', async () => {
    const path = join(dir, 'spellings.jsonl');
    await writeFile(
      path,
      [
        '{"citation": 1, "label": "Partially supported", "claim": "Bodmin (Bosvena"}',
        '{"citation": 3, "label": "UNSUPPORTED"}',
        '{"citation": 4, "label": "SUPPORTED", "claim": "Bodmin had a population of 14,736 as of the 2011 Census."}',
      ].join('\n') + '\n',
    );
    const r = (await runAuditEval({ auditor: auditor(), input, labels: path, unlabelled: 'skip' })).result;
    assert.deepEqual(r.citations.map((c) => c.label), ['partially_supported', 'not_supported', 'supported']);
  });
});
