/**
 * The import graph of src/ follows the layers of docs/DESIGN.md: a module imports only from its own layer
 * or lower ones, runtime code never imports training (learn) or evaluation (eval) code, and there are no
 * import cycles between files. Type-only imports count too: a type owned by the wrong layer is a defect.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const SRC = resolve('src');

/** Lower number = lower layer. A folder may import its own layer and every lower one. */
export const LAYERS: Record<string, number> = {
  util: 0,
  text: 1,
  corpus: 1,
  models: 2,
  provenance: 3,
  store: 4,
  retrieve: 5,
  verify: 6,
  wiki: 7,
  sources: 7,
  highlight: 7,
  search: 7,
  audit: 8,
  documents: 8,
  annotations: 9,
  report: 9,
  app: 10,
  learn: 11,
  eval: 12,
  cli: 13,
  server: 13,
  bench: 13,
  index: 14,
};
/** Runtime folders: what `veracite serve` and library users load. Training and evaluation stay out. */
const RUNTIME = ['util', 'text', 'corpus', 'models', 'provenance', 'store', 'retrieve', 'verify', 'wiki', 'sources', 'search', 'audit', 'documents', 'highlight', 'report', 'annotations', 'app', 'server'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.includes(`${'/'}testing${'/'}`)) out.push(p);
  }
  return out;
}

function folderOf(file: string): string {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.split('/')[0]! : rel.replace(/\.ts$/, '');
}

/** Relative imports of a file (static, re-exports and dynamic import('...')), resolved to .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    out.push(resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
  }
  return out;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => t.startsWith(SRC))]));

describe('architecture', () => {
  it('every source folder has a layer', () => {
    const unknown = [...new Set(files.map(folderOf))].filter((f) => LAYERS[f] === undefined);
    assert.deepEqual(unknown, [], 'add new folders to LAYERS here and to docs/DESIGN.md');
  });

  it('no import from a lower layer to a higher one', () => {
    const bad: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      for (const t of targets) {
        const to = folderOf(t);
        if (LAYERS[to]! > LAYERS[from]!) bad.push(`${relative(SRC, file)} -> ${relative(SRC, t)} (${from} ${LAYERS[from]} < ${to} ${LAYERS[to]})`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('runtime code never imports training or evaluation code', () => {
    const bad: string[] = [];
    for (const [file, targets] of graph) {
      if (!RUNTIME.includes(folderOf(file))) continue;
      for (const t of targets) if (['learn', 'eval', 'cli', 'bench'].includes(folderOf(t))) bad.push(`${relative(SRC, file)} -> ${relative(SRC, t)}`);
    }
    assert.deepEqual(bad, []);
  });

  it('no import cycles between files', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].map((p) => relative(SRC, p)).join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    assert.deepEqual(cycles, []);
  });

  it('the checker sees real imports (it would catch a violation)', () => {
    // A guard against a checker that silently reads nothing: the composition root must import the store.
    const app = graph.get(join(SRC, 'app', 'veracite.ts')) ?? [];
    assert.ok(app.some((t) => folderOf(t) === 'store'), 'app/veracite.ts imports store/');
    assert.ok(files.length > 100, `${files.length} source files read`);
  });
});
