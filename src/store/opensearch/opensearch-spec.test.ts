import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { FTS_SETTINGS } from '../lancedb-store.js';
import { ENGLISH_STOP_WORDS, MAX_TOKEN_BYTES } from '../memory/english-analyzer.js';
import { ANALYSIS, ANALYZER, cosineFromScore, passagesIndexBody, vectorProperty } from './opensearch-schema.js';
import { isOpenSearchSpec, parseOpenSearchSpec } from './opensearch-spec.js';

describe('opensearch:// index specs', () => {
  it('gives HTTPS by default, HTTP with opensearch+http, credentials and TLS from the environment', () => {
    assert.ok(isOpenSearchSpec('opensearch://localhost:9200/fever'));
    assert.ok(!isOpenSearchSpec('tmp/index'));
    const s = parseOpenSearchSpec('opensearch://localhost:9200/fever', { OPENSEARCH_USERNAME: 'admin', OPENSEARCH_PASSWORD: 'pw', OPENSEARCH_INSECURE: '1' });
    assert.equal(s.node, 'https://localhost:9200');
    assert.equal(s.name, 'fever');
    assert.deepEqual(s.clientOptions.auth, { username: 'admin', password: 'pw' });
    assert.deepEqual(s.clientOptions.ssl, { rejectUnauthorized: false });
    const h = parseOpenSearchSpec('opensearch+http://10.0.0.5:9200/wiki', {});
    assert.equal(h.node, 'http://10.0.0.5:9200');
    assert.equal(h.clientOptions.auth, undefined);
  });

  it("takes scheme and credentials from OPENSEARCH_URL when it names the same host", () => {
    const s = parseOpenSearchSpec('opensearch://localhost:9200/fever', { OPENSEARCH_URL: 'http://admin:s%40cret@localhost:9200' });
    assert.equal(s.node, 'http://localhost:9200');
    assert.deepEqual(s.clientOptions.auth, { username: 'admin', password: 's@cret' });
    const other = parseOpenSearchSpec('opensearch://search.example:9200/fever', { OPENSEARCH_URL: 'http://admin:x@localhost:9200' });
    assert.equal(other.clientOptions.auth, undefined);
    assert.equal(other.display, 'opensearch://search.example:9200/fever');
  });

  it('refuses credentials in the spec, bad index names and other shapes, saying what to do', () => {
    assert.throws(() => parseOpenSearchSpec('opensearch://admin:pw@localhost:9200/x', {}), /OPENSEARCH_USERNAME/);
    assert.throws(() => parseOpenSearchSpec('opensearch://localhost:9200/Fever', {}), /lower-case/);
    assert.throws(() => parseOpenSearchSpec('opensearch://localhost:9200', {}), /expected opensearch:\/\/host:port\/name/);
  });
});

describe('OpenSearch index schema', () => {
  it("mirrors LanceDB's full-text settings filter for filter", () => {
    assert.equal(FTS_SETTINGS.baseTokenizer, 'simple');
    const analyzer = ANALYSIS.analyzer![ANALYZER] as { filter: string[] };
    // LanceDB: remove long -> lowercase -> stem -> stop words -> ASCII folding; 'İ' is rewritten before
    // lowercase because Lucene lower-cases it to 'i' where Rust gives 'i' + U+0307 (found on the live cluster).
    assert.deepEqual(analyzer.filter, ['veracite_length', 'veracite_dotted_i', 'lowercase', 'veracite_stem', 'veracite_stop', 'asciifolding']);
    // Long tokens are counted in UTF-8 bytes, as LanceDB counts them (Lucene's length filter counts chars).
    const length = ANALYSIS.filter!['veracite_length'] as { type: string; script: { source: string } };
    assert.equal(length.type, 'predicate_token_filter');
    assert.match(length.script.source, new RegExp(`return n < ${MAX_TOKEN_BYTES};`));
    assert.deepEqual(ANALYSIS.filter!['veracite_dotted_i'], { type: 'pattern_replace', pattern: '\u0130', replacement: 'i\u0307' });
    assert.deepEqual(ANALYSIS.filter!['veracite_stop'], { type: 'stop', stopwords: [...ENGLISH_STOP_WORDS] });
    const body = passagesIndexBody(3, 1);
    assert.equal((body.settings as Record<string, unknown>)['index.knn'], true);
    assert.deepEqual((vectorProperty(512) as { method: { space_type: string } }).method.space_type, 'cosinesimil');
    assert.equal(cosineFromScore(1), 1);
    assert.equal(cosineFromScore(0.5), 0);
  });
});
