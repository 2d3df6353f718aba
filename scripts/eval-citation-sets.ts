/**
 * The labelled citation sets of data/samples, audited as a user audits them (`veracite audit ARTICLE
 * --sources DIR --no-index`, the shipped models) and scored as issue 36 states its targets
 * (src/eval/citation-set.ts): bands right, not-supported (contradicted / changed-number) citations banded
 * supported, tags proposed on supported citations; and (issue 43) the ROC AUC of the probability of support
 * (`verification.probability`, and the entailment verdict's `verification.support` beside it) for supported
 * against contradicted, changed-number and wrong-source citations, pooled over each set. Each run is saved under its name in
 * eval-results/citation-sets.json (the earlier runs are kept: "first-run" is the figure before any rule was
 * changed for the set, docs/RESULTS-HISTORY.md).
 *
 *   node --import tsx scripts/eval-citation-sets.ts --name after-fix
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { scoreCitationSet, separationOfSupport, type ScoredCitation, type ScoredRow, type SetLabel, type SetScore } from '../src/eval/citation-set.js';

const { values } = parseArgs({ options: { name: { type: 'string', default: 'latest' }, out: { type: 'string', default: 'eval-results/citation-sets.json' }, profile: { type: 'string' }, sets: { type: 'string' } } });
/** --profile lite | verifier | <name>: the engine the audits run with (default: the package's default engine). */
const engineArgs = values.profile ? ['--profile', values.profile] : [];

/** The sample's labels name what is wrong in its README's table, not per line: contradicted 5 15 22, changed number 13. */
const SAMPLE_KINDS: Record<number, string> = { 5: 'contradiction', 15: 'contradiction', 22: 'contradiction', 13: 'number', 6: 'wrong-page', 18: 'wrong-page', 20: 'wrong-page' };

const SETS: { set: string; article: string; sources: string; labels: string; kinds?: Record<number, string> }[] = [
  { set: 'sample', article: 'data/samples/audit/Breast_cancer_risk_factors.txt', sources: 'data/samples/audit/sources', labels: 'data/samples/audit/labels.jsonl', kinds: SAMPLE_KINDS },
  { set: 'citation-set', article: 'data/samples/citation-set/Multidrug-resistant_tuberculosis.txt', sources: 'data/samples/citation-set/sources', labels: 'data/samples/citation-set/Multidrug-resistant_tuberculosis.labels.jsonl' },
  { set: 'citation-set', article: 'data/samples/citation-set/Malaria_prophylaxis.txt', sources: 'data/samples/citation-set/sources', labels: 'data/samples/citation-set/Malaria_prophylaxis.labels.jsonl' },
  { set: 'citation-set-2', article: 'data/samples/citation-set-2/Statin_therapy.txt', sources: 'data/samples/citation-set-2/sources', labels: 'data/samples/citation-set-2/Statin_therapy.labels.jsonl' },
  { set: 'citation-set-2', article: 'data/samples/citation-set-2/Antiretroviral_therapy_outcomes.txt', sources: 'data/samples/citation-set-2/sources', labels: 'data/samples/citation-set-2/Antiretroviral_therapy_outcomes.labels.jsonl' },
];

const readLabels = async (path: string): Promise<SetLabel[]> => (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as SetLabel);

type Separations = { probability: ReturnType<typeof separationOfSupport>; support: ReturnType<typeof separationOfSupport> };
const separations = (rows: readonly ScoredRow[]): Separations => ({ probability: separationOfSupport(rows, 'probability'), support: separationOfSupport(rows, 'support') });
const out: Record<string, { articles: { article: string; score: SetScore; separation: Separations }[]; total: Omit<SetScore, 'rows' | 'confusion'>; separation?: Separations }> = {};
/** --sets sample,citation-set: only these (citation set 2's first run with a new engine is kept for the engine meant to be the default). */
const only = values.sets ? new Set(values.sets.split(',')) : undefined;
for (const name of only ?? []) if (!SETS.some((x) => x.set === name)) throw new Error(`--sets: no set named ${name} (the sets: ${[...new Set(SETS.map((x) => x.set))].join(', ')})`);
for (const s of SETS.filter((x) => !only || only.has(x.set))) {
  const json = join(tmpdir(), `veracite-citation-set-${process.pid}.json`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'audit', s.article, '--sources', s.sources, '--no-index', '--out', json, '--quiet', ...engineArgs], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`audit of ${s.article} failed:\n${r.stderr}`);
  const report = JSON.parse(await readFile(json, 'utf8')) as { citations: ScoredCitation[] };
  const score = scoreCitationSet(report.citations, (await readLabels(s.labels)).map((l) => ({ ...l, ...(s.kinds?.[l.citation] ? { kind: s.kinds[l.citation] } : {}) })));
  const entry = (out[s.set] ??= { articles: [], total: { citations: 0, bandsRight: 0, notSupportedBandedSupported: 0, contradictedOrNumberBandedSupported: 0, contradictedOrNumber: 0, tagsOnSupported: 0, tags: 0 } });
  entry.articles.push({ article: s.article, score, separation: separations(score.rows) });
  for (const k of Object.keys(entry.total) as (keyof typeof entry.total)[]) entry.total[k] += score[k];
  console.log(`${s.article}: bands right ${score.bandsRight}/${score.citations}; not supported banded supported ${score.notSupportedBandedSupported} (contradicted/number ${score.contradictedOrNumberBandedSupported}/${score.contradictedOrNumber}); tags on supported ${score.tagsOnSupported} of ${score.tags} tags`);
  for (const row of score.rows) if (!row.right || (row.tag && row.label === 'supported')) console.log(`  #${row.citation} ${row.label} (${row.kind ?? ''}) -> ${row.band}${row.probability !== undefined ? ` p ${row.probability.toFixed(2)}` : ''}${row.tag ? ' TAG' : ''}`);
}
const fmt = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(3));
for (const [set, e] of Object.entries(out)) {
  e.separation = separations(e.articles.flatMap((a) => a.score.rows));
  const p = e.separation.probability, q = e.separation.support;
  console.log(`${set}: AUC of P(supports) [verification.probability], supported (${p.vsContradicted.supported}) vs contradicted (${p.vsContradicted.other}) ${fmt(p.vsContradicted.auc)}, vs changed-number (${p.vsChangedNumber.other}) ${fmt(p.vsChangedNumber.auc)}, vs wrong-source (${p.vsWrongSource.other}) ${fmt(p.vsWrongSource.auc)}; entailment verdict [verification.support]: ${fmt(q.vsContradicted.auc)} / ${fmt(q.vsChangedNumber.auc)} / ${fmt(q.vsWrongSource.auc)}; not supported banded supported ${p.notSupportedBandedSupported}/${p.notSupported}${p.unscored ? `; ${p.unscored} citations without a probability left out` : ''}`);
}
for (const [set, e] of Object.entries(out)) console.log(`${set}: bands right ${e.total.bandsRight}/${e.total.citations}; not supported banded supported ${e.total.notSupportedBandedSupported}; contradicted/number banded supported ${e.total.contradictedOrNumberBandedSupported}/${e.total.contradictedOrNumber}; tags on supported ${e.total.tagsOnSupported} (of ${e.total.tags} tags)`);

const saved = existsSync(values.out!) ? (JSON.parse(await readFile(values.out!, 'utf8')) as { runs: Record<string, unknown> }) : { runs: {} };
// Which code gave the figures: the commit, and whether the working tree differed from it (others' edits count).
const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' });
const head = git('rev-parse', '--short', 'HEAD');
const tree = head.status === 0 ? `${head.stdout.trim()}${git('status', '--porcelain', '--untracked-files=no').stdout.trim() ? ' + uncommitted changes' : ''}` : 'not a git checkout';
saved.runs[values.name!] = { at: new Date().toISOString(), command: `node --import tsx scripts/eval-citation-sets.ts --name ${values.name}${values.profile ? ` --profile ${values.profile}` : ''}${values.sets ? ` --sets ${values.sets}` : ''}`, tree, ...out };
await mkdir('eval-results', { recursive: true });
await writeFile(values.out!, JSON.stringify(saved, null, 1) + '\n');
console.log(`saved run "${values.name}" in ${values.out}`);
