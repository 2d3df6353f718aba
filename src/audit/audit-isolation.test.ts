/**
 * One citation's failure (a scorer error, a store error, a resolver bug) is that citation's error in the
 * report; the audit of every other citation goes on (issue 12).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PairScorer, ScoredPair } from '../models/types.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { ingestSource } from '../store/ingest.js';
import { LanceStore } from '../store/lancedb-store.js';
import { loadArticleInput } from './article-input.js';
import { CitationAuditor } from './audit.js';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import type { AuditInput } from './types.js';

describe('an audit with one failing citation', () => {
  let dir: string;
  let store: LanceStore;
  let input: AuditInput;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-auditiso-'));
    store = await LanceStore.open(join(dir, 'idx'));
    await ingestSource(store, 'test/fixtures/audit/pendrick-corpus.jsonl', { format: 'jsonl' });
    input = await loadArticleInput('test/fixtures/audit/pendrick.wikitext', { title: 'Pendrick Lighthouse' });
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reports the failure on that citation and audits the others', async () => {
    const target = input.citations[1]!;
    const lexical = new LexicalPairScorer();
    const scorer: PairScorer = {
      info: lexical.info,
      score: async (pairs: ScoredPair[]) => {
        if (pairs.some((p) => p.query.includes(target.claim))) throw new Error('onnxruntime: out of memory (simulated)');
        return lexical.score(pairs);
      },
    };
    const resolver = new SourceResolver({ store });
    const report = await new CitationAuditor({ scorer, resolver, store }).auditArticle(input);
    assert.equal(report.citations.length, input.citations.length);
    const failed = report.citations[1]!;
    assert.match(failed.error!, /could not be audited: onnxruntime: out of memory \(simulated\)/);
    assert.equal(failed.verification, undefined);
    assert.equal(failed.source.status, 'found', 'the source lookup result is still reported');
    const others = report.citations.filter((_, i) => i !== 1);
    assert.ok(others.every((c) => c.error === undefined));
    assert.equal(others.filter((c) => c.verification).length, 4, 'the other found sources are scored');
  });

  it('a resolver that throws for one citation fails only that one', async () => {
    const real = new SourceResolver({ store });
    const target = input.citations[0]!.source.url;
    const resolver = { resolve: async (ref: Parameters<SourceResolver['resolve']>[0]) => (ref.url === target ? Promise.reject(new Error('EACCES: permission denied, open snapshot')) : real.resolve(ref)) } as unknown as SourceResolver;
    const report = await new CitationAuditor({ scorer: new LexicalPairScorer(), resolver, store }).auditArticle(input);
    assert.equal(report.citations.length, input.citations.length);
    assert.match(report.citations[0]!.error!, /EACCES/);
    assert.equal(report.citations[0]!.source.status, 'unreachable');
    assert.ok(report.citations.slice(1).some((c) => c.verification));
  });
});
