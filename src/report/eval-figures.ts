/**
 * Saved evaluation results (the JSON the src/eval runners and `veracite calibrate` write) -> the figures
 * and tables of a report. Pure: no rendering here (eval-report.ts renders), so every figure's data can be
 * checked in tests.
 *
 * Known shapes, recognised by their fields:
 *   - citation detection (`task: "wice-citation-detection"`, eval-results/citation-detection*.json):
 *     precision-recall curves of the best variant with the baselines and the default variant as points
 *     at 15/30/50% recall; score histograms by gold label (the per-citation scores are recovered from the
 *     saved curve, which steps through every citation's score).
 *   - a flag calibration (`format: "veracite-calibration"`, models/calibration/*.json): the same, with
 *     the calibrated threshold marked; a reliability diagram when the score is a probability.
 *   - an audit scored against labels (`task: "audit-eval"`, `veracite eval audit`): curves, histograms
 *     with the audit's threshold, and gold label against the flag decision.
 *   - claim verification (`results.<setting>.labelAccuracy.confusion`, eval-results/scifact*.json):
 *     the label confusion matrix per setting.
 *   - retrieval (`metrics["ndcg@10"]` with `perQuery`) and citation recovery (`task: "wice-citation-recovery"`):
 *     metric bars per mode / method.
 */
import type { TopLevelSpec } from 'vega-lite';
import { confusionSpec, histogramByGroupSpec, metricBarsSpec, precisionRecallSpec, reliabilitySpec, riskCoverageSpec, type NamedPoint, type PrCurve } from './charts.js';
import { expectedCalibrationError, reliabilityBins } from './reliability.js';
import { calibratorInputs, type VerdictCalibrator } from '../verify/aggregate.js';
import { LABELS } from '../verify/types.js';
import { reportPath } from '../util/report-path.js';

export interface Table {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
  /** Shown folded behind a "details" toggle (settings and weights, for the curious). */
  folded?: boolean;
}

export interface Figure {
  id: string;
  caption: string;
  spec: TopLevelSpec;
}

export interface Section {
  heading: string;
  /** Where the data came from (file names) and how it was made (command, date). */
  source: string[];
  figures: Figure[];
  tables: Table[];
}

export interface ResultFile {
  name: string;
  data: unknown;
}

export const SUPPORT_LABELS = ['supported', 'partially_supported', 'not_supported'] as const;
export type SupportLabel = (typeof SUPPORT_LABELS)[number];

const DEFINITION_TITLES: Record<string, string> = {
  not_supported: 'flagging not_supported citations',
  not_or_partially_supported: 'flagging not_supported or partially_supported citations',
};

export interface CurvePoint {
  threshold: number;
  precision: number;
  recall: number;
  flagged: number;
  truePositives?: number;
}

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

function positivesAt(p: CurvePoint): number {
  return p.truePositives ?? Math.round(p.precision * p.flagged);
}

/**
 * Per-citation scores and gold labels from the two saved curves. Each curve lists, threshold by
 * threshold (ascending, flag when score <= threshold), how many citations are flagged and how many of
 * them are positive; both curves step through the same scores, so the counts added at each threshold
 * split into the three labels: not_supported (positive in both), partially_supported (positive only in
 * the broader definition), supported (positive in neither).
 */
export function itemsFromCurves(notSupported: readonly CurvePoint[], notOrPartial: readonly CurvePoint[]): { score: number; label: SupportLabel }[] {
  if (notSupported.length !== notOrPartial.length) throw new Error(`the two curves differ in length (${notSupported.length} vs ${notOrPartial.length}): not from one run`);
  const out: { score: number; label: SupportLabel }[] = [];
  let f0 = 0;
  let ns0 = 0;
  let nop0 = 0;
  notSupported.forEach((a, i) => {
    const b = notOrPartial[i]!;
    if (a.threshold !== b.threshold || a.flagged !== b.flagged) throw new Error(`curve point ${i}: thresholds or counts differ between the two definitions`);
    const df = a.flagged - f0;
    const dns = positivesAt(a) - ns0;
    const dnop = positivesAt(b) - nop0;
    if (df < 0 || dns < 0 || dnop < dns || dnop > df) throw new Error(`curve point ${i}: counts go backwards (not a cumulative curve)`);
    for (let k = 0; k < dns; k++) out.push({ score: a.threshold, label: 'not_supported' });
    for (let k = 0; k < dnop - dns; k++) out.push({ score: a.threshold, label: 'partially_supported' });
    for (let k = 0; k < df - dnop; k++) out.push({ score: a.threshold, label: 'supported' });
    [f0, ns0, nop0] = [a.flagged, positivesAt(a), positivesAt(b)];
  });
  return out;
}

/** What a score means, for axis titles: every score a person sees states its scale. */
export function scaleOf(kind: { ranker?: boolean; backend?: string; id?: string }): string {
  if (kind.ranker) return 'source-ranker score (linear, higher = better supported)';
  if (kind.backend === 'lexical' || kind.id === 'lexical-overlap') return 'lexical score: share of the claim\u2019s words found (0..1)';
  if (kind.backend === 'trained') return 'evidence score (trained head, probability 0..1)';
  return 'verification engine score (higher = better supported)';
}

function fmt(x: number | undefined, digits = 3): string {
  return x === undefined ? '—' : x.toFixed(digits);
}

function recallPoints(name: string, m: Json | undefined): NamedPoint[] {
  if (!m) return [];
  return ([15, 30, 50] as const).flatMap((r) => {
    const p = num(m[`precisionAt${r}Recall`]);
    return p === undefined ? [] : [{ name, recall: r / 100, precision: p }];
  });
}

function histogramFigure(id: string, title: string, items: { score: number; label: SupportLabel }[], scale: string, threshold?: number): Figure {
  const counts = SUPPORT_LABELS.map((l) => `${l} ${items.filter((i) => i.label === l).length}`).join(', ');
  return {
    id,
    caption: `Scores of the cited pages by gold label (${counts}). A useful flag puts not_supported citations left of the threshold and supported ones right of it.`,
    spec: histogramByGroupSpec({ title, items: items.map((i) => ({ score: i.score, group: i.label })), groups: [...SUPPORT_LABELS], scale, ...(threshold !== undefined ? { threshold } : {}) }),
  };
}

function detectionMetricsTable(caption: string, rows: { name: string; metrics: Json }[]): Table {
  const defs = Object.keys(DEFINITION_TITLES);
  return {
    caption,
    columns: ['method', ...defs.flatMap((d) => [`${d}: ROC AUC`, `${d}: avg. precision`, `${d}: P@15%R`])],
    rows: rows.map((r) => [r.name, ...defs.flatMap((d) => {
      const m = isObj(r.metrics[d]) ? (r.metrics[d] as Json) : {};
      return [fmt(num(m['rocAuc'])), fmt(num(m['averagePrecision'])), fmt(num(m['precisionAt15Recall']))];
    })]),
  };
}

function provenanceLines(name: string, d: Json): string[] {
  const prov = isObj(d['provenance']) ? (d['provenance'] as Json) : {};
  const command = typeof prov['command'] === 'string' ? prov['command'] : typeof d['command'] === 'string' ? d['command'] : undefined;
  const created = typeof d['createdAt'] === 'string' ? d['createdAt'] : typeof prov['createdAt'] === 'string' ? prov['createdAt'] : undefined;
  return [name, ...(command ? [`command: ${command}`] : []), ...(created ? [`created: ${created}`] : [])];
}

function curveOf(x: unknown, where: string): CurvePoint[] {
  if (!Array.isArray(x) || !x.every((p) => isObj(p) && num(p['threshold']) !== undefined && num(p['flagged']) !== undefined && num(p['precision']) !== undefined && num(p['recall']) !== undefined)) {
    throw new Error(`${where}: expected a list of {threshold, precision, recall, flagged} points`);
  }
  return x as CurvePoint[];
}

// ---- citation detection (eval-results/citation-detection*.json) ----

function detectionSection(file: ResultFile, d: Json): Section {
  const best = d['best'] as Json;
  const bestName = String(best['name']);
  const curves = best['curves'] as Json;
  const scorer = (isObj(d['scorer']) ? d['scorer'] : {}) as Json;
  const variants = (Array.isArray(d['variants']) ? d['variants'] : []) as Json[];
  const baselines = (Array.isArray(d['baselines']) ? d['baselines'] : []) as Json[];
  const defaultVariant = variants.find((v) => v['name'] === 'sentence/none/48' && v['name'] !== bestName);
  const figures: Figure[] = [];
  for (const def of Object.keys(DEFINITION_TITLES)) {
    if (!curves[def]) continue;
    const curve = curveOf(curves[def], `${file.name}: best.curves.${def}`);
    const bestMetrics = variants.find((v) => v['name'] === bestName)?.['metrics'] as Json | undefined;
    const positiveRate = num((bestMetrics?.[def] as Json | undefined)?.['positiveRate']) ?? (curve.length ? curve[curve.length - 1]!.precision : undefined);
    const points = [
      ...baselines.flatMap((b) => recallPoints(`baseline: ${String(b['name'])}`, (b['metrics'] as Json)[def] as Json)),
      ...(defaultVariant ? recallPoints(`engine alone (${String(defaultVariant['name'])})`, (defaultVariant['metrics'] as Json)[def] as Json) : []),
    ];
    figures.push({
      id: `pr-${def}`,
      caption: `Precision and recall of flagging citations whose score is at or below a threshold, as the threshold rises (${bestName}, the whole curve). Baselines were saved at 15, 30 and 50% recall only: points.`,
      spec: precisionRecallSpec({ title: `Precision-recall, ${DEFINITION_TITLES[def]}`, subtitle: `${String(d['task'])}, n = ${String(d['n'])}`, curves: [{ name: bestName, points: curve } satisfies PrCurve], points, ...(positiveRate !== undefined ? { positiveRate } : {}) }),
    });
  }
  if (curves['not_supported'] && curves['not_or_partially_supported']) {
    const items = itemsFromCurves(curveOf(curves['not_supported'], file.name), curveOf(curves['not_or_partially_supported'], file.name));
    figures.push(histogramFigure('hist', `Scores by gold label (${bestName})`, items, scaleOf({ ranker: bestName.startsWith('ranker'), ...(scorer as { backend?: string; id?: string }) })));
  }
  return {
    heading: `Citation detection: ${String(d['task'])}`,
    source: [...provenanceLines(file.name, d), `scorer: ${String(scorer['id'] ?? '?')}`],
    figures,
    tables: [detectionMetricsTable('Detection of unsupported citations (low score = flagged)', [...variants.map((v) => ({ name: String(v['name']), metrics: v['metrics'] as Json })), ...baselines.map((b) => ({ name: `baseline: ${String(b['name'])}`, metrics: b['metrics'] as Json }))])],
  };
}

// ---- flag calibration (models/calibration/*.json) ----

function calibrationSection(file: ResultFile, d: Json): Section {
  const defs = d['definitions'] as Json;
  const scorer = (isObj(d['scorer']) ? d['scorer'] : {}) as Json;
  const ranker = isObj(d['ranker']);
  const scale = scaleOf({ ranker, ...(scorer as { backend?: string; id?: string }) });
  const signal = ranker ? 'source ranker' : String(scorer['id'] ?? 'engine');
  const figures: Figure[] = [];
  const rows: (string | number)[][] = [];
  for (const def of Object.keys(DEFINITION_TITLES)) {
    const x = defs[def];
    if (!isObj(x)) continue;
    const curve = curveOf(x['curve'], `${file.name}: definitions.${def}.curve`);
    const at = isObj(x['atThreshold']) ? (x['atThreshold'] as Json) : undefined;
    const op = at && num(at['precision']) !== undefined && num(at['recall']) !== undefined ? [{ name: 'flag threshold', precision: at['precision'] as number, recall: at['recall'] as number }] : [];
    const last = curve[curve.length - 1];
    figures.push({
      id: `pr-${def}`,
      caption: `Precision-recall of flagging by ${signal}; the diamond is the calibrated threshold (${String(x['criterion'] ?? '')}, ${fmt(num(x['threshold']))}).`,
      spec: precisionRecallSpec({ title: `Precision-recall, ${DEFINITION_TITLES[def]}`, subtitle: `${signal}, ${String((d['data'] as Json | undefined)?.['path'] ?? '')}`, curves: [{ name: signal, points: curve }], operatingPoints: op, ...(last ? { positiveRate: last.precision } : {}) }),
    });
    rows.push([def, fmt(num(x['threshold'])), String(x['criterion'] ?? ''), fmt(num(at?.['precision'])), fmt(num(at?.['recall'])), num(at?.['flagged']) ?? '—', fmt(num(x['rocAuc'])), fmt(num(x['averagePrecision']))]);
  }
  const ns = defs['not_supported'];
  const nop = defs['not_or_partially_supported'];
  if (isObj(ns) && isObj(nop)) {
    const items = itemsFromCurves(curveOf(ns['curve'], file.name), curveOf(nop['curve'], file.name));
    const def = String(d['defaultDefinition'] ?? 'not_supported');
    const threshold = num((defs[def] as Json | undefined)?.['threshold']);
    figures.push(histogramFigure('hist', `Scores by gold label (${signal})`, items, scale, threshold));
    if (!ranker && scorer['backend'] === 'trained') {
      const bins = reliabilityBins(items.map((i) => ({ p: i.score, y: i.label === 'supported' })));
      figures.push({
        id: 'reliability',
        caption: `The trained engine's score read as the probability that the cited page supports the claim, against the share of citations labelled supported, in ten equal-width bins (point size = citations in the bin). Expected calibration error ${fmt(expectedCalibrationError(bins))}.`,
        spec: reliabilitySpec({ title: 'Reliability of the engine score as P(supported)', subtitle: `ECE ${fmt(expectedCalibrationError(bins))}, n = ${items.length}`, bins, predicted: 'engine score (as a probability)', observed: 'share labelled supported' }),
      });
    }
  }
  return {
    heading: `Flag calibration: ${signal}`,
    source: provenanceLines(file.name, d),
    figures,
    tables: [{ caption: 'Calibrated thresholds (flag when the score is at or below)', columns: ['definition', 'threshold', 'criterion', 'precision', 'recall', 'flagged', 'ROC AUC', 'avg. precision'], rows }],
  };
}

// ---- an audit scored against labels (veracite eval audit) ----

function auditEvalSection(file: ResultFile, d: Json): Section {
  const rows = (Array.isArray(d['citations']) ? d['citations'] : []) as Json[];
  const flagging = (isObj(d['flagging']) ? d['flagging'] : {}) as Json;
  const threshold = num(flagging['threshold']);
  const scale = scaleOf({ ranker: flagging['signal'] === 'ranker' });
  const scored = rows.filter((r) => num(r['signal']) !== undefined && SUPPORT_LABELS.includes(r['label'] as SupportLabel));
  const figures: Figure[] = [];
  const defs = (isObj(d['definitions']) ? d['definitions'] : {}) as Json;
  const baselines = (Array.isArray(d['baselines']) ? d['baselines'] : []) as Json[];
  for (const def of Object.keys(DEFINITION_TITLES)) {
    const x = defs[def];
    if (!isObj(x) || !Array.isArray(x['curve'])) continue;
    const at = isObj(x['atThreshold']) ? (x['atThreshold'] as Json) : undefined;
    figures.push({
      id: `pr-${def}`,
      caption: 'Precision-recall of the audit\u2019s flag signal on the labelled citations; baselines as points at 15/30/50% recall; the diamond is the audit\u2019s threshold.',
      spec: precisionRecallSpec({
        title: `Precision-recall, ${DEFINITION_TITLES[def]}`,
        subtitle: `${String(d['name'] ?? file.name)}, ${scored.length} scored citations`,
        curves: [{ name: `audit (${String(flagging['signal'] ?? 'engine')})`, points: curveOf(x['curve'], `${file.name}: definitions.${def}.curve`) }],
        points: baselines.flatMap((b) => recallPoints(`baseline: ${String(b['name'])}`, (b['metrics'] as Json | undefined)?.[def] as Json | undefined)),
        ...(at && num(at['precision']) !== undefined ? { operatingPoints: [{ name: 'flag threshold', precision: at['precision'] as number, recall: at['recall'] as number }] } : {}),
      }),
    });
  }
  if (scored.length) {
    figures.push(histogramFigure('hist', 'Citation scores by gold label', scored.map((r) => ({ score: r['signal'] as number, label: r['label'] as SupportLabel })), scale, threshold));
    figures.push({
      id: 'confusion',
      caption: 'Each labelled, scored citation: its gold label (rows) and whether the audit flagged it (columns).',
      spec: confusionSpec({
        title: 'Gold label against the audit\u2019s flag',
        rows: [...SUPPORT_LABELS],
        columns: ['flagged', 'not flagged'],
        columnTitle: 'audit decision',
        counts: scored.map((r) => ({ gold: r['label'] as string, predicted: r['flagged'] ? 'flagged' : 'not flagged', n: 1 })),
      }),
    });
  }
  return {
    heading: `Audit against labels: ${String(d['name'] ?? file.name)}`,
    source: provenanceLines(file.name, d),
    figures,
    tables: [
      {
        caption: 'Labelled citations',
        columns: ['#', 'label', 'source status', 'score', 'flagged', 'claim'],
        rows: rows.map((r) => [num(r['citation']) ?? '', String(r['label'] ?? ''), String(r['status'] ?? ''), fmt(num(r['signal'])), r['flagged'] ? 'yes' : 'no', String(r['claim'] ?? '')]),
      },
    ],
  };
}

// ---- claim verification (eval-results/scifact*.json) ----

const VERDICT_LABELS = ['SUPPORT', 'NOT_ENOUGH_INFO', 'CONTRADICT'];

/** The verdict rule's scalar settings in words ("columbia, by-document, support threshold 0.325, ..."); the calibrator's weights go to a table. */
export function verdictRuleWords(rule: Json): string {
  return Object.entries(rule)
    .filter(([, v]) => v === null || typeof v !== 'object')
    .map(([k, v]) => (k === 'rule' || k === 'across' ? String(v) : `${k.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)} ${typeof v === 'number' ? fmtNumber(v) : String(v)}`))
    .join(', ');
}

function fmtNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toFixed(4)));
}

/**
 * The verdict calibrator (a small multinomial logistic layer) as a table, folded: one row per output class,
 * a column per input feature and the bias. Was printed as raw JSON in the page's header (issue 31).
 */
export function calibratorTables(rule: Json): Table[] {
  const cal = rule['calibrator'];
  if (!isObj(cal) || !Array.isArray(cal['weights'])) return [];
  const weights = cal['weights'] as unknown[];
  if (!weights.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'number'))) return [];
  const bias = Array.isArray(cal['bias']) ? (cal['bias'] as unknown[]) : [];
  // logits[k] = bias[k] + weights[k] . [ln P(support), ln P(refute), ln P(neither), relevance, ...inputs] (verify/aggregate.ts)
  const width = Math.max(...(weights as number[][]).map((r) => r.length));
  const named = ['ln P(support)', 'ln P(refute)', 'ln P(neither)', 'relevance', ...calibratorInputs(cal as unknown as VerdictCalibrator)];
  const inputs = Array.from({ length: width }, (_, i) => named[i] ?? `input ${i + 1}`);
  const classes: readonly string[] = LABELS;
  return [
    {
      caption: 'Verdict calibrator weights (rows: verdict; columns: input)',
      columns: ['verdict', ...inputs, 'bias'],
      rows: (weights as number[][]).map((r, i) => [weights.length === classes.length ? classes[i]! : `class ${i + 1}`, ...r.map(fmtNumber), typeof bias[i] === 'number' ? fmtNumber(bias[i] as number) : '']),
      folded: true,
    },
  ];
}

function verdictSection(file: ResultFile, d: Json): Section {
  const results = d['results'] as Json;
  const prov = isObj(d['provenance']) ? (d['provenance'] as Json) : {};
  const rule = isObj(prov['config']) && isObj((prov['config'] as Json)['verdict']) ? ((prov['config'] as Json)['verdict'] as Json) : undefined;
  const figures: Figure[] = [];
  const rows: (string | number)[][] = [];
  for (const [setting, r] of Object.entries(results)) {
    if (!isObj(r)) continue;
    const la = isObj(r['labelAccuracy']) ? (r['labelAccuracy'] as Json) : undefined;
    const m = isObj(r['metrics']) ? (r['metrics'] as Json) : {};
    const f1 = (k: string) => fmt(num((m[k] as Json | undefined)?.['f1']));
    rows.push([setting, f1('abstract_label_only'), f1('abstract_rationalized'), f1('sentence_selection'), f1('sentence_label'), fmt(num(la?.['accuracy'])), fmt(num(la?.['majorityBaseline']))]);
    if (la && isObj(la['confusion'])) {
      const conf = la['confusion'] as Record<string, Record<string, number>>;
      const counts = Object.entries(conf).flatMap(([gold, row]) => Object.entries(row).map(([predicted, n]) => ({ gold, predicted, n })));
      const labels = [...VERDICT_LABELS.filter((l) => l in conf), ...Object.keys(conf).filter((l) => !VERDICT_LABELS.includes(l))];
      figures.push({
        id: `confusion-${setting}`,
        caption: `Gold label against the predicted label for each (claim, cited abstract) pair, ${setting} setting (${String(la['pairs'] ?? '')} pairs): accuracy ${fmt(num(la['accuracy']))}, majority-label baseline ${fmt(num(la['majorityBaseline']))}.`,
        spec: confusionSpec({ title: `Verdict confusion matrix (${setting})`, rows: labels, columns: labels, counts }),
      });
    }
  }
  return {
    heading: `Claim verification: ${typeof d['claims'] === 'string' ? reportPath(d['claims']) : file.name}`,
    source: [...provenanceLines(file.name, d), ...(rule ? [`verdict rule: ${verdictRuleWords(rule)}`] : [])],
    figures,
    tables: [{ caption: 'SciFact metrics (F1) and label accuracy', columns: ['setting', 'abstract label-only', 'abstract rationalized', 'sentence selection', 'sentence label', 'label accuracy', 'majority baseline'], rows }, ...(rule ? calibratorTables(rule) : [])],
  };
}

// ---- the verdict layer across domains (veracite tune-verdict --domains) ----

function domainsSection(file: ResultFile, d: Json): Section {
  const verdict = d['verdict'] as Json;
  const review = (isObj(d['review']) ? d['review'] : {}) as Json;
  const final = (isObj(d['finalCheck']) ? d['finalCheck'] : {}) as Json;
  const pct = (x: unknown) => (num(x) === undefined ? '' : `${(100 * num(x)!).toFixed(1)}%`);
  const recall = (f: Json) => Object.entries((f['recall'] ?? {}) as Json).map(([l, v]) => `${l} ${pct(v)}`).join(', ');
  const rows: (string | number)[][] = [];
  const curves: { name: string; points: { coverage: number; accuracy: number }[] }[] = [];
  const addRow = (name: string, f: Json, r: Json | undefined) => {
    const maj = (f['majority'] ?? {}) as Json;
    const s = (r?.['selectiveAccuracy'] ?? {}) as Json;
    rows.push([name, String(f['items'] ?? ''), pct(f['accuracy']), `${String(maj['label'] ?? '')} ${pct(maj['accuracy'])}`, recall(f), fmt(num(f['ece'])), ...(r ? [fmt(num(r['auroc'])), pct(s['25']), pct(s['50']), pct(s['75']), pct(s['100']), fmt(num(r['aurc']))] : ['', '', '', '', '', ''])]);
    if (r && Array.isArray(r['curve'])) curves.push({ name, points: r['curve'] as { coverage: number; accuracy: number }[] });
  };
  for (const [domain, v] of Object.entries(verdict)) {
    if (!isObj(v)) continue;
    if (isObj(v['shipped'])) addRow(`${domain}: shipped rule`, v['shipped'] as Json, isObj(review[domain]) ? (review[domain] as Json) : undefined);
    if (isObj(v['lodo'])) addRow(`${domain}: fitted without ${domain}`, v['lodo'] as Json, undefined);
  }
  for (const [domain, f] of Object.entries(final)) if (isObj(f) && isObj(f['verdict'])) addRow(`${domain} (final check): shipped rule`, f['verdict'] as Json, isObj(f['review']) ? (f['review'] as Json) : undefined);
  return {
    heading: 'The verdict layer across domains (leave one domain out)',
    source: [file.name, `rule ${String(d['rule'] ?? '')}; needs review below P(right) ${String(d['level'] ?? '')}; created ${String(d['createdAt'] ?? '')}`],
    figures: curves.length ? [{ id: 'risk-coverage', caption: 'Selective accuracy when only the verdicts with the highest P(right) are answered (the needs-review model fitted without the domain it is drawn for); the dashed line is the 0.80 target at 50% coverage.', spec: riskCoverageSpec({ title: 'Risk-coverage per domain', curves, target: 0.8 }) }] : [],
    tables: [{ caption: 'Per held-out domain: label accuracy against the majority class, per-class recall, ECE; needs review: AUROC of P(right), selective accuracy at 25/50/75/100% coverage, area under the risk-coverage curve', columns: ['domain / rule', 'items', 'accuracy', 'majority', 'recall', 'ECE', 'AUROC', 'sel@25', 'sel@50', 'sel@75', 'sel@100', 'AURC'], rows }],
  };
}

// ---- retrieval and citation recovery ----

const RETRIEVAL_METRICS = ['ndcg@10', 'recall@10', 'recall@100', 'mrr'];

function retrievalSection(files: { file: ResultFile; d: Json }[]): Section {
  const task = String(files[0]!.d['task']);
  const seriesName = ({ file, d }: { file: ResultFile; d: Json }) => {
    const prov = isObj(d['provenance']) ? (d['provenance'] as Json) : {};
    return typeof prov['mode'] === 'string' ? `${prov['mode']} (${file.name.split('/').pop()})` : file.name.split('/').pop()!;
  };
  const rows = files.flatMap((f) => RETRIEVAL_METRICS.map((metric) => ({ series: seriesName(f), metric, value: num((f.d['metrics'] as Json)[metric]) ?? 0 })));
  return {
    heading: `Retrieval: ${task}`,
    source: files.flatMap(({ file, d }) => provenanceLines(file.name, d).slice(0, 1).concat(`queries evaluated: ${String(d['nEvaluated'] ?? '?')}`)),
    figures: [{ id: 'metrics', caption: 'Retrieval quality per run (higher is better; all on 0..1).', spec: metricBarsSpec({ title: `Retrieval on ${task}`, rows, metrics: RETRIEVAL_METRICS }) }],
    tables: [{ caption: 'Retrieval metrics', columns: ['run', ...RETRIEVAL_METRICS], rows: files.map((f) => [seriesName(f), ...RETRIEVAL_METRICS.map((m) => fmt(num((f.d['metrics'] as Json)[m])))]) }],
  };
}

function recoverySection(file: ResultFile, d: Json): Section {
  const methods = (Array.isArray(d['methods']) ? d['methods'] : []) as Json[];
  const metrics = ['p@1', 'sr@10', 'sr@100', 'mrr'];
  const rows = methods.flatMap((m) => metrics.map((metric) => ({ series: String(m['method']), metric, value: num((m['metrics'] as Json)[metric]) ?? 0 })));
  return {
    heading: `Citation recovery: ${String(d['task'])}`,
    source: provenanceLines(file.name, d),
    figures: [{ id: 'metrics', caption: 'Finding the hidden cited page among the index\u2019s documents: precision at 1 and success at 10 / 100 per method.', spec: metricBarsSpec({ title: 'Citation recovery', subtitle: `${String(d['nQueries'] ?? '')} claims`, rows, metrics }) }],
    tables: [{ caption: 'Citation recovery', columns: ['method', ...metrics], rows: methods.map((m) => [String(m['method']), ...metrics.map((k) => fmt(num((m['metrics'] as Json)[k])))]) }],
  };
}

export type ResultKind = 'citation-detection' | 'calibration' | 'audit-eval' | 'verdicts' | 'retrieval' | 'citation-recovery' | 'verdict-domains';

export function resultKind(d: unknown): ResultKind | undefined {
  if (!isObj(d)) return undefined;
  if (d['task'] === 'wice-citation-detection' && isObj(d['best'])) return 'citation-detection';
  if (d['format'] === 'veracite-calibration' && isObj(d['definitions'])) return 'calibration';
  if (d['task'] === 'audit-eval') return 'audit-eval';
  if (d['task'] === 'wice-citation-recovery') return 'citation-recovery';
  if (d['task'] === 'verdict-domains' && isObj(d['verdict'])) return 'verdict-domains';
  if (isObj(d['results']) && Object.values(d['results']).some((r) => isObj(r) && (isObj(r['labelAccuracy']) || isObj(r['metrics'])))) return 'verdicts';
  if (isObj(d['metrics']) && num((d['metrics'] as Json)['ndcg@10']) !== undefined) return 'retrieval';
  return undefined;
}

export const KNOWN_RESULTS =
  'citation detection (eval citation-detection), a flag calibration (veracite calibrate), an audit against labels (eval audit), claim verification (eval scifact), the verdict layer across domains (tune-verdict --domains), retrieval (eval retrieval), citation recovery (eval citation-recovery)';

/** Sections for the given results, in the given order (retrieval results of one task share a section). */
export function sectionsFor(files: readonly ResultFile[]): Section[] {
  const sections: Section[] = [];
  const retrieval = new Map<string, { file: ResultFile; d: Json }[]>();
  for (const file of files) {
    const kind = resultKind(file.data);
    if (!kind) throw new Error(`${file.name}: not an evaluation result this report knows; expected one of: ${KNOWN_RESULTS}`);
    const d = file.data as Json;
    if (kind === 'retrieval') {
      const task = String(d['task']);
      if (!retrieval.has(task)) {
        retrieval.set(task, []);
        sections.push({ heading: `retrieval:${task}`, source: [], figures: [], tables: [] }); // placeholder, filled below
      }
      retrieval.get(task)!.push({ file, d });
      continue;
    }
    sections.push(
      kind === 'citation-detection' ? detectionSection(file, d) : kind === 'calibration' ? calibrationSection(file, d) : kind === 'audit-eval' ? auditEvalSection(file, d) : kind === 'verdicts' ? verdictSection(file, d) : kind === 'verdict-domains' ? domainsSection(file, d) : recoverySection(file, d),
    );
  }
  return sections.map((s) => (s.heading.startsWith('retrieval:') ? retrievalSection(retrieval.get(s.heading.slice('retrieval:'.length))!) : s));
}
