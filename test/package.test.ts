/**
 * The library as a user gets it: `npm pack` the package (which builds dist/), unpack the tarball into a
 * fresh project's node_modules, import it as ESM and type-check a small TypeScript file against its
 * declarations. The fresh project sits under the repository's tmp/, so the package's own dependencies
 * resolve from the repository's node_modules without a second install.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const ROOT = resolve('.');

describe('the packed library', () => {
  let project: string;
  let pkgDir: string;
  before(() => {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    project = mkdtempSync(join(ROOT, 'tmp', 'pack-test-'));
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
    pkgDir = join(project, 'node_modules', 'veracite');
    mkdirSync(pkgDir, { recursive: true });
    execFileSync('tar', ['-xzf', join(project, filename!), '-C', pkgDir, '--strip-components=1']);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'pack-test', private: true, type: 'module' }));
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('ships the runtime pieces and leaves tests and benchmarks out', () => {
    const files = execFileSync('tar', ['-tzf', execFileSync('ls', [project], { encoding: 'utf8' }).split('\n').find((f) => f.endsWith('.tgz'))!], { cwd: project, encoding: 'utf8' }).split('\n');
    for (const f of ['package/dist/index.js', 'package/dist/index.d.ts', 'package/bin/veracite.js', 'package/models/evidence-head.json', 'package/src/web/index.html', 'package/data/samples/scifact/corpus.jsonl']) {
      assert.ok(files.includes(f), `${f} in the package`);
    }
    assert.ok(!files.some((f) => f.endsWith('.test.js') || f.startsWith('package/bench/') || f.startsWith('package/test/')), 'no tests or benchmarks');
  });

  it('imports as ESM: indexes the shipped sample, searches and verifies through the public API', () => {
    writeFileSync(
      join(project, 'main.mjs'),
      `import { Veracite, LABELS } from 'veracite';
import { join } from 'node:path';
const dir = join(process.cwd(), 'idx');
const vc = await Veracite.open({ index: { dir } }, { create: true });
const s = await vc.ingest(join(process.cwd(), 'node_modules/veracite/data/samples/scifact/corpus.jsonl'), { format: 'scifact' });
const r = await vc.search('ALDH1 expression and breast cancer prognosis', { k: 3 });
const v = await vc.verify('ALDH1 expression is associated with poorer prognosis in breast cancer.');
await vc.close();
console.log(JSON.stringify({ documents: s.documents, mode: r.mode, top: r.documents.map((d) => d.title), label: v.label, known: LABELS.includes(v.label), models: v.provenance.models.map((m) => m.id) }));
`,
    );
    const out = JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: project, encoding: 'utf8' }).trim().split('\n').at(-1)!) as { documents: number; mode: string; top: string[]; known: boolean; models: string[] };
    assert.equal(out.documents, readFileSync(join(ROOT, 'data/samples/scifact/corpus.jsonl'), 'utf8').trim().split('\n').length);
    assert.equal(out.mode, 'bm25');
    assert.equal(out.top.length, 3);
    assert.ok(out.top.some((t) => /ALDH1/i.test(t)), JSON.stringify(out.top));
    assert.ok(out.known);
    assert.equal(out.models.length, 2, 'evidence scorer and entailment head');
  });

  it('type-checks a TypeScript file against the declarations', () => {
    writeFileSync(
      join(project, 'check.ts'),
      `import { Veracite, parseSettings, type SettingsInput, type Verdict, type AuditReport, type CitationView, type AuditProgress, type BandInfo, type AuditProvenance, type PageKind, type ResolvedSource, type DocumentDecision, type PairDecision, type SearchVerifier, type ModelHub, type EmbedMissingOptions } from 'veracite';
// Every type a public signature uses can be named.
export type Named = [AuditProgress, BandInfo, AuditProvenance, PageKind, ResolvedSource, DocumentDecision, PairDecision, SearchVerifier, ModelHub, EmbedMissingOptions];
const settings: SettingsInput = { index: { dir: 'idx' }, retrieval: { mode: 'hybrid', depth: 50 }, audit: { ranker: 'off' } };
const full = parseSettings(settings);
const mode: 'auto' | 'bm25' | 'dense' | 'hybrid' = full.retrieval.mode;
export async function run(): Promise<[Verdict, AuditReport | undefined, CitationView | undefined, string]> {
  const vc = await Veracite.open(settings);
  const verdict = await vc.verify('a claim');
  const label: 'SUPPORTS' | 'REFUTES' | 'NOT ENOUGH INFO' = verdict.label;
  await vc.close();
  return [verdict, undefined, undefined, label + mode];
}
`,
    );
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['check.ts'] }));
    execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    // And a wrong use is an error: the declarations are really read.
    writeFileSync(join(project, 'check.ts'), `import { parseSettings } from 'veracite';\nparseSettings({ retrieval: { mode: 'fastest' } });\n`);
    assert.throws(
      () => execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8', stdio: 'pipe' }),
      (e: { stdout?: string }) => /"fastest"/.test(String(e.stdout)),
    );
  });
});
