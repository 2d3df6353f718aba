/**
 * Which engine judged (issue 29): the web page (verify and audit results) and the HTML audit report name
 * the calibrated model profile from the provenance, else the offline heads.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CitationAuditor } from '../src/audit/audit.js';
import { loadArticleInput } from '../src/audit/article-input.js';
import { renderAuditHtml } from '../src/audit/report-html.js';
import { LexicalPairScorer } from '../src/models/lexical-scorer.js';
import { SnapshotFolder } from '../src/sources/snapshot-folder.js';
import { SourceResolver } from '../src/sources/resolve-source.js';

type Provenance = { config?: Record<string, unknown>; models?: { id: string; version: string }[] };
const dom = (await import(join(import.meta.dirname, '..', 'src', 'web', 'dom.js'))) as { judgedBy(p: Provenance | undefined): string };

describe('judged by', () => {
  it('the web page reads the profile from a verdict\'s config, an audit\'s models, else says offline heads', () => {
    assert.equal(dom.judgedBy({ config: { profile: { name: 'nli-small', hash: '0123456789abcdef' } }, models: [] }), 'judged by: nli-small (sha256:0123456789abcdef)');
    assert.equal(dom.judgedBy({ config: {}, models: [{ id: 'use', version: '1' }, { id: 'profile:reranker', version: 'sha256:fedcba9876543210' }] }), 'judged by: reranker (sha256:fedcba9876543210)');
    assert.equal(dom.judgedBy({ config: {}, models: [{ id: 'use', version: '1' }] }), 'judged by: the lite engine (the offline heads shipped in models/; no model profile)');
    assert.equal(dom.judgedBy(undefined), 'judged by: the lite engine (the offline heads shipped in models/; no model profile)');
  });

  it('the HTML audit report names the profile among its provenance rows', async () => {
    const root = join(import.meta.dirname, '..');
    const input = await loadArticleInput(join(root, 'data', 'samples', 'audit', 'Breast_cancer_risk_factors.txt'));
    const resolver = new SourceResolver({ snapshots: await SnapshotFolder.open(join(root, 'data', 'samples', 'audit', 'sources')) });
    const report = await new CitationAuditor({ scorer: new LexicalPairScorer(), resolver }).auditArticle(input);
    assert.match(renderAuditHtml(report), /<td>judged by<\/td><td><code>the lite engine \(the offline heads shipped in models\/; no model profile\)<\/code><\/td>/);
    const withProfile = { ...report, provenance: { ...report.provenance, models: [...report.provenance.models, { id: 'profile:nli-small', version: 'sha256:0123456789abcdef', backend: 'profile' }] } };
    assert.match(renderAuditHtml(withProfile), /<td>judged by<\/td><td><code>model profile nli-small \(sha256:0123456789abcdef\)<\/code><\/td>/);
  });
});
