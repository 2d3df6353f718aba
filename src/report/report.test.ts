/**
 * The report module on the results this repository ships (eval-results/, models/calibration/) and on a
 * real audit of the shipped audit sample (lexical scorer, its --sources folder, no index).
 */
import { BAND_THRESHOLDS } from '../verify/decision.js';
import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CitationAuditor } from '../audit/audit.js';
import { loadArticleInput } from '../audit/article-input.js';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import type { AuditReport } from '../audit/types.js';
import { loadCalibration, probabilityOf } from '../audit/calibration.js';
import { reportScale } from '../audit/report-scale.js';
import { packageRoot } from '../util/package-root.js';
import { SnapshotFolder } from '../sources/snapshot-folder.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { auditScoreSpec, renderAuditHtmlWithChart } from './audit-chart.js';
import { confusionSpec, renderSvg } from './charts.js';
import { itemsFromCurves, resultKind, sectionsFor, type CurvePoint } from './eval-figures.js';
import { evalReportFromFiles, loadResultFiles } from './eval-report.js';
import { expectedCalibrationError, reliabilityBins } from './reliability.js';

const ROOT = packageRoot();
const at = (...p: string[]) => join(ROOT, ...p);

describe('reliability bins', () => {
  it('bins probabilities, averages them and their outcomes, and weighs the gaps by bin size', () => {
    const items = [
      { p: 0.05, y: false },
      { p: 0.15, y: false },
      { p: 0.12, y: true },
      { p: 0.95, y: true },
      { p: 1, y: true },
      { p: 0.9, y: false },
    ];
    const bins = reliabilityBins(items, 10);
    assert.equal(bins.length, 10);
    assert.deepEqual(bins.map((b) => b.count), [1, 2, 0, 0, 0, 0, 0, 0, 0, 3]);
    assert.ok(Math.abs(bins[1]!.meanPredicted - 0.135) < 1e-12);
    assert.equal(bins[1]!.observed, 0.5);
    assert.ok(Math.abs(bins[9]!.meanPredicted - 2.85 / 3) < 1e-12);
    // |0.05-0| * 1/6 + |0.135-0.5| * 2/6 + |0.95-2/3| * 3/6
    assert.ok(Math.abs(expectedCalibrationError(bins) - (0.05 / 6 + (0.365 * 2) / 6 + ((0.95 - 2 / 3) * 3) / 6)) < 1e-12);
    assert.throws(() => reliabilityBins([{ p: 1.2, y: true }]), /not a probability/);
  });
});

describe('charts', () => {
  it('prefixes element ids and their references, so charts rendered apart can share a page', async () => {
    const spec = confusionSpec({ title: 'labels', rows: ['a', 'b'], columns: ['a', 'b'], counts: [{ gold: 'a', predicted: 'a', n: 3 }, { gold: 'b', predicted: 'a', n: 1 }] });
    const svg = await renderSvg(spec, 'fig1-');
    const ids = [...svg.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(ids.length > 0 && ids.every((id) => id.startsWith('fig1-')), ids.join(','));
    for (const m of svg.matchAll(/url\(#([^)]+)\)/g)) assert.ok(ids.includes(m[1]!), m[0]);
    assert.match(svg, />3</, 'counts are written in the cells');
  });
});

describe('eval figures from saved results', () => {
  it('recovers every citation and its gold label from the two saved detection curves', async () => {
    const [file] = await loadResultFiles([at('eval-results', 'citation-detection.json')]);
    const d = file!.data as { n: number; labelCounts: Record<string, number>; best: { curves: Record<string, CurvePoint[]> } };
    const items = itemsFromCurves(d.best.curves['not_supported']!, d.best.curves['not_or_partially_supported']!);
    assert.equal(items.length, d.n);
    for (const label of ['supported', 'partially_supported', 'not_supported']) assert.equal(items.filter((i) => i.label === label).length, d.labelCounts[label], label);
    // ascending scores, as the curve steps through them
    assert.ok(items.every((x, i) => i === 0 || x.score >= items[i - 1]!.score));
    assert.throws(() => itemsFromCurves(d.best.curves['not_supported']!, d.best.curves['not_supported']!.slice(1)), /differ in length/);
  });

  it('recognises each shipped result and builds its figures', async () => {
    const files = await loadResultFiles([
      at('eval-results', 'citation-detection.json'),
      at('models', 'calibration', 'wice-dev.json'),
      at('models', 'calibration', 'wice-dev-ranker.json'),
      at('eval-results', 'scifact.json'),
      at('eval-results', 'scifact-retrieval-bm25.json'),
      at('eval-results', 'scifact-retrieval-dense.json'),
      at('eval-results', 'citation-recovery.json'),
    ]);
    assert.deepEqual(files.map((f) => resultKind(f.data)), ['citation-detection', 'calibration', 'calibration', 'verdicts', 'retrieval', 'retrieval', 'citation-recovery']);
    const sections = sectionsFor(files);
    assert.equal(sections.length, 6, 'the two retrieval runs of one task share a section');
    const ids = sections.map((s) => s.figures.map((f) => f.id).join(','));
    assert.deepEqual(ids, ['pr-not_supported,pr-not_or_partially_supported,hist', 'pr-not_supported,pr-not_or_partially_supported,hist,reliability', 'pr-not_supported,pr-not_or_partially_supported,hist', 'confusion-oracle', 'metrics', 'metrics']);
    // the baselines are on the precision-recall chart, at the recall levels they were saved at
    const pr = JSON.stringify(sections[0]!.figures[0]!.spec);
    assert.match(pr, /baseline: bm25/);
    assert.match(pr, /baseline: tfidf/);
    // the ranker calibration's histogram carries its threshold
    const ranker = JSON.parse(await readFile(at('models', 'calibration', 'wice-dev-ranker.json'), 'utf8')) as { definitions: { not_supported: { threshold: number } } };
    assert.ok(JSON.stringify(sections[2]!.figures[2]!.spec).includes(String(ranker.definitions.not_supported.threshold)));
    // the verdict confusion matrix adds up to the pairs evaluated
    const conf = sections[3]!.figures[0]!.spec as unknown as { data: { values: { n: number }[] } };
    assert.equal(conf.data.values.reduce((a, v) => a + v.n, 0), 340);
  });

  it('names the file and what it expected when a result is unknown', () => {
    assert.throws(() => sectionsFor([{ name: 'x.json', data: { hello: 1 } }]), /x\.json: not an evaluation result this report knows; expected one of: citation detection/);
  });
});

describe('eval report page', () => {
  it('is one self-contained HTML page with an SVG chart per figure, captions and tables', async () => {
    // two verdict results: two confusion matrices, each with a colour legend gradient
    const html = await evalReportFromFiles([at('eval-results', 'citation-detection.json'), at('eval-results', 'scifact.json'), at('eval-results', 'scifact-columbia.json')], { title: 'Test report' });
    assert.ok(html.startsWith('<!DOCTYPE html>'));
    assert.equal((html.match(/<figure /g) ?? []).length, 5);
    assert.equal((html.match(/<svg /g) ?? []).length, 5);
    assert.equal((html.match(/<figcaption>/g) ?? []).length, 5);
    assert.doesNotMatch(html, /<script|<link|<img|@import|url\((?!#)|src=/i, 'nothing to fetch');
    // ids are unique across the inline SVGs (gradients of two legends must not collide)
    const ids = [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(new Set(ids).size, ids.length, 'duplicate element ids');
    for (const m of html.matchAll(/url\(#([^)]+)\)/g)) assert.ok(ids.includes(m[1]), `url(#${m[1]}) points at an element of the page`);
    // every reference to the network is an XML namespace, never something to load
    for (const m of html.matchAll(/https?:\/\/[^"'\s<)]+/g)) assert.match(m[0], /^http:\/\/www\.w3\.org\//, m[0]);
    assert.match(html, /random flagging \(12% positives\)/);
    assert.match(html, /source-ranker score \(linear, higher = better supported\)/, 'the histogram states its scale');
    assert.match(html, /<table><caption>Detection of unsupported citations/);
    // issue 31: every table scrolls inside its own wrapper, never past its card; no raw JSON of the calibrator's weights
    assert.match(html, /\.table-wrap\{max-width:100%;overflow-x:auto\}/);
    assert.equal((html.match(/<div class="table-wrap"><table>/g) ?? []).length, (html.match(/<table>/g) ?? []).length);
    assert.doesNotMatch(html, /\{&quot;|&quot;weights&quot;|\[\[-?\d/, 'no JSON dump');
    assert.match(html, /verdict rule: (columbia|concat), by-document, [^<{]*support threshold/);
    assert.match(html, /<details><summary>Verdict calibrator weights[^<]*<\/summary><div class="table-wrap"><table><caption>Verdict calibrator weights[^<]*<\/caption><thead><tr><th scope="col">verdict<\/th><th scope="col">ln P\(support\)<\/th>/);
    assert.match(html, /<td>SUPPORTS<\/td><td>-?\d/);
  });

  it('refuses a missing or broken file by name', async () => {
    await assert.rejects(evalReportFromFiles([at('eval-results', 'nothere.json')]), /nothere\.json: cannot read \(ENOENT\)/);
    await assert.rejects(evalReportFromFiles([at('data', 'samples', 'audit', 'README.md')]), /README\.md: not JSON/);
    await assert.rejects(evalReportFromFiles([]), /no result files given/);
  });
});

describe('audit score distribution', () => {
  it('charts an audit of the shipped sample with its threshold, and the HTML report embeds it', async () => {
    const input = await loadArticleInput(at('data', 'samples', 'audit', 'Breast_cancer_risk_factors.txt'));
    const scorer = new LexicalPairScorer();
    const resolver = new SourceResolver({ snapshots: await SnapshotFolder.open(at('data', 'samples', 'audit', 'sources')) });
    const auditor = new CitationAuditor({ scorer, resolver, flag: { threshold: 0.3, source: 'test threshold' } });
    const report: AuditReport = await auditor.auditArticle(input);
    assert.equal(report.summary.scored, 22);
    const spec = auditScoreSpec(report) as unknown as { data: { values: { score: number; status: string }[] }; layer: unknown[] };
    assert.equal(spec.data.values.length, 22);
    assert.equal(spec.data.values.filter((v) => v.status === 'flagged').length, report.summary.flagged);
    assert.match(JSON.stringify(spec.layer), /flag threshold 0\.300/);
    assert.match(JSON.stringify(spec), /lexical score: share of the claim/);
    const svg = await renderSvg(auditScoreSpec(report));
    assert.match(svg, /^<svg /);
    const page = await renderAuditHtmlWithChart(report);
    assert.match(page, /<figure class="chart"><svg /);
    assert.match(page, /the audit flags those at or below 0\.300/);
  });

  it('with a calibration that carries a probability fit, every view shows the probability of support and the threshold on that scale', async () => {
    const cal = await loadCalibration(at('models', 'calibration', 'wice-dev-lexical.json'));
    const d = cal.definitions[cal.defaultDefinition]!;
    assert.ok(cal.probability && cal.probability.a > 0, 'the shipped lexical calibration carries an increasing probability fit');
    const pThreshold = probabilityOf(cal.probability, d.threshold);
    const input = await loadArticleInput(at('data', 'samples', 'audit', 'Breast_cancer_risk_factors.txt'));
    const resolver = new SourceResolver({ snapshots: await SnapshotFolder.open(at('data', 'samples', 'audit', 'sources')) });
    const flag = { threshold: d.threshold, source: 'wice-dev-lexical.json', probability: { a: cal.probability.a, b: cal.probability.b, threshold: pThreshold } };
    const report = await new CitationAuditor({ scorer: new LexicalPairScorer(), resolver, flag }).auditArticle(input);
    // One threshold (issue 36, verify/decision.ts): likely fails verification = the not-supported band, whatever the calibration's own threshold.
    assert.equal(report.provenance.flagging.probabilityThreshold, BAND_THRESHOLDS.notSupportedBelow);
    assert.ok(pThreshold > 0);
    const scored = report.citations.filter((c) => c.verification);
    for (const c of scored) {
      const v = c.verification!;
      assert.ok(v.probability! >= 0 && v.probability! <= 1, `citation ${c.index}: probability ${v.probability}`);
      assert.equal(v.flagged, v.probability! < BAND_THRESHOLDS.notSupportedBelow, `citation ${c.index}: flagged iff in the not-supported band`);
    }
    assert.ok(scored.some((c) => c.verification!.flagged) && scored.some((c) => !c.verification!.flagged), 'the sample has flagged and unflagged citations');
    const scale = reportScale(report);
    assert.equal(scale.kind, 'probability');
    assert.equal(scale.threshold, BAND_THRESHOLDS.notSupportedBelow);
    const spec = auditScoreSpec(report) as unknown as { data: { values: { score: number }[] }; layer: unknown[] };
    assert.deepEqual(spec.data.values.map((v) => v.score).sort(), scored.map((c) => c.verification!.probability!).sort());
    assert.match(JSON.stringify(spec), /probability that the cited source supports the claim/);
    assert.match(JSON.stringify(spec.layer), new RegExp(`flag threshold ${BAND_THRESHOLDS.notSupportedBelow.toFixed(3).replace('.', '\\.')}`));
    const page = await renderAuditHtmlWithChart(report);
    // One number per card (the probability of support), the threshold on the same scale in its details.
    assert.match(page, /<p class="verdict">Probability of support <span class="score">[0-9.]+<\/span><span class="bar">/);
    assert.match(page, new RegExp(`likely failing verification below a probability of support of ${BAND_THRESHOLDS.notSupportedBelow.toFixed(3).replace('.', '\\.')} \\(the not-supported band\\)`));
    assert.match(page, /probability of support below 0\.\d{3} \(the not-supported band; a \{\{failed verification\}\} tag is proposed below/, 'the provenance quotes the one threshold');
  });
});

describe('the verdict layer across domains (eval-results/verdict-domains.json)', () => {
  it('gives a risk-coverage chart and a per-domain table, and the chart renders', async () => {
    const data = JSON.parse(await readFile(join(packageRoot(), 'eval-results', 'verdict-domains.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(resultKind(data), 'verdict-domains');
    const [section] = sectionsFor([{ name: 'eval-results/verdict-domains.json', data }]);
    assert.ok(section!.heading.includes('across domains'));
    assert.equal(section!.figures[0]!.id, 'risk-coverage');
    const domains = Object.keys(data['verdict'] as object);
    for (const d of domains) assert.ok(section!.tables[0]!.rows.some((r) => String(r[0]).startsWith(`${d}: shipped`)), d);
    const svg = await renderSvg(section!.figures[0]!.spec, 'rc-');
    assert.match(svg, /^<svg/);
  });
});
