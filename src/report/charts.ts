/**
 * Evaluation charts as SVG, drawn on this machine by Vega-Lite (compiled to a Vega spec, rendered by
 * Vega's headless SVG string renderer: no browser, no canvas, no network). Each chart is a spec builder
 * (pure: data in, Vega-Lite JSON out, easy to test and to reuse elsewhere) plus `renderSvg`.
 *
 * Why Vega-Lite: a maintained charting grammar whose axes, legends, facets and layers cover every chart
 * here in a few lines each, and whose `View.toSVG()` works headless in Node. The v5 line is used because
 * vega-lite 6 requires Node >= 22 and this project supports Node 20 (see README.md in this folder).
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** Shared look: the page's font, light grid, titles on the left. */
const CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  background: '#ffffff',
  view: { stroke: '#d9dee4' },
  axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#eceff3', titleFontWeight: 600 },
  legend: { labelFontSize: 11, titleFontSize: 12, orient: 'bottom' as const, direction: 'horizontal' as const, labelLimit: 360, titleLimit: 360, columns: 2, columnPadding: 16 },
  title: { fontSize: 14, anchor: 'start' as const, subtitleFontSize: 11, subtitleColor: '#5d6b78' },
  header: { labelFontSize: 11, titleFontSize: 12 },
};

/** Colours for series (colour-blind safe, Okabe-Ito order). */
export const SERIES_COLORS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#000000'];

/** Colours for support labels, the same as the highlighting roles (src/highlight). */
export const LABEL_COLORS: Record<string, string> = {
  supported: '#1d7a3a',
  partially_supported: '#9a7b00',
  not_supported: '#b42318',
  SUPPORT: '#1d7a3a',
  CONTRADICT: '#b42318',
  NOT_ENOUGH_INFO: '#5d6b78',
};

/**
 * The chart as an SVG string. `idPrefix` makes its element ids (gradients, clip paths) unique: inline
 * SVGs share one id space in an HTML page, and two charts that both define "gradient_0" would paint
 * each other's legends.
 */
export async function renderSvg(spec: TopLevelSpec, idPrefix = ''): Promise<string> {
  const view = new View(parse(compile({ config: CONFIG, ...spec } as TopLevelSpec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return idPrefix ? svg.replace(/\bid="([^"]+)"/g, `id="${idPrefix}$1"`).replace(/url\(#([^)]+)\)/g, `url(#${idPrefix}$1)`).replace(/href="#([^"]+)"/g, `href="#${idPrefix}$1"`) : svg;
  } finally {
    view.finalize();
  }
}

const WIDTH = 440;
const HEIGHT = 300;

export interface PrCurve {
  name: string;
  /** In the order they were computed (threshold order); drawn as a line through them. */
  points: { recall: number; precision: number }[];
}

export interface NamedPoint {
  name: string;
  recall: number;
  precision: number;
}

/**
 * Precision against recall: one line per curve; baselines known only at a few recall levels as marked
 * points; the share of positives as the "flag at random" line; an operating point (the calibrated
 * threshold) as a larger mark.
 */
export function precisionRecallSpec(opts: { title: string; subtitle?: string; curves: PrCurve[]; points?: NamedPoint[]; positiveRate?: number; operatingPoints?: NamedPoint[] }): TopLevelSpec {
  const lines = opts.curves.flatMap((c) => c.points.map((p, i) => ({ series: c.name, i, recall: p.recall, precision: p.precision })));
  const names = [...new Set([...opts.curves.map((c) => c.name), ...(opts.points ?? []).map((p) => p.name)])];
  const color = { field: 'series', type: 'nominal' as const, title: null, scale: { domain: names, range: SERIES_COLORS } };
  const x = { field: 'recall', type: 'quantitative' as const, title: 'recall', scale: { domain: [0, 1] } };
  const y = { field: 'precision', type: 'quantitative' as const, title: 'precision', scale: { domain: [0, 1] } };
  const layer: TopLevelSpec[] = [
    { data: { values: lines }, mark: { type: 'line', interpolate: 'linear', strokeWidth: 2 }, encoding: { x, y, color, order: { field: 'i', type: 'quantitative' } } } as TopLevelSpec,
  ];
  if (opts.points?.length) {
    layer.push({
      data: { values: opts.points.map((p) => ({ series: p.name, recall: p.recall, precision: p.precision })) },
      mark: { type: 'point', filled: true, size: 70, strokeWidth: 1 },
      encoding: { x, y, color, shape: { field: 'series', type: 'nominal', legend: null } },
    } as TopLevelSpec);
  }
  if (opts.operatingPoints?.length) {
    const data = { values: opts.operatingPoints.map((p) => ({ series: p.name, recall: p.recall, precision: p.precision })) };
    layer.push({ data, mark: { type: 'point', shape: 'diamond', size: 160, filled: false, strokeWidth: 2, color: '#000' }, encoding: { x, y } } as TopLevelSpec);
    layer.push({ data, mark: { type: 'text', dx: 8, dy: -10, align: 'left', fontSize: 11 }, encoding: { x, y, text: { value: 'flag threshold' } } } as TopLevelSpec);
  }
  if (opts.positiveRate !== undefined) {
    layer.push({
      data: { values: [{ precision: opts.positiveRate, label: `random flagging (${(opts.positiveRate * 100).toFixed(0)}% positives)` }] },
      layer: [
        { mark: { type: 'rule', strokeDash: [4, 4], color: '#5d6b78' }, encoding: { y } },
        { mark: { type: 'text', align: 'left', dx: 4, dy: -6, fontSize: 10, color: '#5d6b78' }, encoding: { y, x: { datum: 0 }, text: { field: 'label' } } },
      ],
    } as unknown as TopLevelSpec);
  }
  return {
    title: { text: opts.title, ...(opts.subtitle ? { subtitle: opts.subtitle } : {}) },
    description: `Precision-recall chart: ${opts.title}`,
    width: WIDTH,
    height: HEIGHT,
    layer,
  } as TopLevelSpec;
}

export interface ReliabilityBin {
  lower: number;
  upper: number;
  /** Mean predicted probability of the items in the bin. */
  meanPredicted: number;
  /** Share of those items whose outcome was positive. */
  observed: number;
  count: number;
}

/** Observed frequency against predicted probability per bin, the diagonal as perfect calibration, point size = items in the bin. */
export function reliabilitySpec(opts: { title: string; subtitle?: string; bins: ReliabilityBin[]; predicted: string; observed: string }): TopLevelSpec {
  const x = { field: 'meanPredicted', type: 'quantitative' as const, title: opts.predicted, scale: { domain: [0, 1] } };
  const y = { field: 'observed', type: 'quantitative' as const, title: opts.observed, scale: { domain: [0, 1] } };
  const bins = opts.bins.filter((b) => b.count > 0);
  return {
    title: { text: opts.title, ...(opts.subtitle ? { subtitle: opts.subtitle } : {}) },
    description: `Reliability diagram: ${opts.title}`,
    width: HEIGHT,
    height: HEIGHT,
    layer: [
      { data: { values: [{ meanPredicted: 0, observed: 0 }, { meanPredicted: 1, observed: 1 }] }, mark: { type: 'line', strokeDash: [4, 4], color: '#9aa5b1' }, encoding: { x, y } },
      { data: { values: bins }, mark: { type: 'line', color: SERIES_COLORS[0], strokeWidth: 2 }, encoding: { x, y } },
      {
        data: { values: bins },
        mark: { type: 'point', filled: true, color: SERIES_COLORS[0] },
        encoding: { x, y, size: { field: 'count', type: 'quantitative', title: 'items in bin', scale: { range: [30, 400] } } },
      },
    ],
  } as TopLevelSpec;
}

/**
 * Gold label (rows) against prediction or decision (columns): cell colour = share of the row (so a
 * small class reads as well as a large one), text = count.
 */
export function confusionSpec(opts: { title: string; subtitle?: string; rows: string[]; columns: string[]; counts: { gold: string; predicted: string; n: number }[]; columnTitle?: string }): TopLevelSpec {
  const rowTotals = new Map<string, number>();
  for (const c of opts.counts) rowTotals.set(c.gold, (rowTotals.get(c.gold) ?? 0) + c.n);
  const values = opts.rows.flatMap((g) =>
    opts.columns.map((p) => {
      const n = opts.counts.filter((c) => c.gold === g && c.predicted === p).reduce((a, c) => a + c.n, 0);
      const total = rowTotals.get(g) ?? 0;
      return { gold: g, predicted: p, n, share: total ? n / total : 0 };
    }),
  );
  const x = { field: 'predicted', type: 'nominal' as const, sort: opts.columns, title: opts.columnTitle ?? 'predicted', axis: { labelAngle: 0, orient: 'top' as const } };
  const y = { field: 'gold', type: 'nominal' as const, sort: opts.rows, title: 'gold label' };
  return {
    title: { text: opts.title, ...(opts.subtitle ? { subtitle: opts.subtitle } : {}) },
    description: `Confusion matrix: ${opts.title}`,
    width: Math.max(160, 110 * opts.columns.length),
    height: Math.max(120, 60 * opts.rows.length),
    data: { values },
    layer: [
      { mark: 'rect', encoding: { x, y, color: { field: 'share', type: 'quantitative', title: 'share of the gold row', scale: { domain: [0, 1], scheme: 'blues' } } } },
      {
        mark: { type: 'text', fontSize: 13 },
        encoding: { x, y, text: { field: 'n', type: 'quantitative' }, color: { condition: { test: 'datum.share > 0.5', value: '#ffffff' }, value: '#1d2329' } },
      },
    ],
  } as TopLevelSpec;
}

/**
 * Score histograms, one row per group (a gold label), on one shared x axis, with the flag threshold as a
 * dashed red rule in each row. `scale` names the score's units (it goes into the x-axis title).
 */
export function histogramByGroupSpec(opts: { title: string; subtitle?: string; items: { score: number; group: string }[]; groups: string[]; scale: string; threshold?: number; maxbins?: number }): TopLevelSpec {
  const layer: unknown[] = [
    {
      mark: { type: 'bar', binSpacing: 1 },
      encoding: {
        x: { field: 'score', type: 'quantitative', bin: { maxbins: opts.maxbins ?? 30 }, title: opts.scale },
        y: { aggregate: 'count', type: 'quantitative', title: 'citations', axis: { tickMinStep: 1, format: 'd', labelExpr: "datum.value % 1 ? '' : datum.label" } },
        color: { field: 'group', type: 'nominal', scale: { domain: opts.groups, range: opts.groups.map((g, i) => LABEL_COLORS[g] ?? SERIES_COLORS[i % SERIES_COLORS.length]!) }, legend: null },
      },
    },
  ];
  if (opts.threshold !== undefined) {
    // One rule per facet row (aggregated to one datum per group), not one per item.
    layer.push({
      transform: [{ aggregate: [{ op: 'count', as: 'n' }], groupby: ['group'] }],
      mark: { type: 'rule', color: '#b42318', strokeDash: [5, 3], strokeWidth: 2 },
      encoding: { x: { datum: opts.threshold } },
    });
  }
  return {
    title: { text: opts.title, subtitle: opts.subtitle ?? (opts.threshold !== undefined ? `dashed red line: flag threshold ${fmt(opts.threshold)} (flagged at or below)` : 'no flag threshold') },
    description: `Score histograms by label: ${opts.title}`,
    data: { values: opts.items },
    facet: { row: { field: 'group', type: 'nominal', sort: opts.groups, title: null, header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top' } } },
    spec: { width: WIDTH, height: 70, layer },
    resolve: { scale: { y: 'independent' } },
  } as TopLevelSpec;
}

/**
 * What the red bars are, counted from the scores shown: flagged below the threshold, and flagged above it
 * (a finding the source states, or a contradiction the model reads: needs review), so the caption never says
 * "at or below" of bars that are not.
 */
export function flaggedCaption(scores: readonly { score: number; flagged: boolean }[], threshold: number | undefined): string {
  const flagged = scores.filter((s) => s.flagged);
  if (threshold === undefined) return flagged.length ? `red: ${flagged.length} flagged (no flag threshold applies to these scores)` : 'no flag threshold applies to these scores';
  const above = flagged.filter((s) => s.score > threshold).length;
  const below = flagged.length - above;
  return `red: ${below} flagged at or below the dashed line (${fmt(threshold)})${above ? `, ${above} above it: the source states otherwise, or the model reads a contradiction (needs review)` : ''}`;
}

/** One audit's citation scores, flagged ones red, with the threshold rule and its value. */
export function scoreDistributionSpec(opts: { title: string; scores: { score: number; flagged: boolean }[]; scale: string; threshold?: number; maxbins?: number }): TopLevelSpec {
  const values = opts.scores.map((s) => ({ score: s.score, status: s.flagged ? 'flagged' : 'not flagged' }));
  const layer: unknown[] = [
    {
      mark: { type: 'bar', binSpacing: 1 },
      encoding: {
        x: { field: 'score', type: 'quantitative', bin: { maxbins: opts.maxbins ?? 20 }, title: opts.scale },
        y: { aggregate: 'count', type: 'quantitative', title: 'citations', axis: { tickMinStep: 1, format: 'd', labelExpr: "datum.value % 1 ? '' : datum.label" } },
        color: { field: 'status', type: 'nominal', title: null, scale: { domain: ['flagged', 'not flagged'], range: ['#b42318', '#9aa5b1'] } },
      },
    },
  ];
  if (opts.threshold !== undefined) {
    // One row of data of their own: with the chart's data, rule and label would be drawn once per citation.
    const one = { values: [{ threshold: opts.threshold }] };
    layer.push({ data: one, mark: { type: 'rule', color: '#b42318', strokeDash: [5, 3], strokeWidth: 2 }, encoding: { x: { field: 'threshold', type: 'quantitative' } } });
    layer.push({
      data: one,
      mark: { type: 'text', align: 'left', dx: 4, dy: 2, baseline: 'top', fontSize: 11, color: '#b42318' },
      encoding: { x: { field: 'threshold', type: 'quantitative' }, y: { value: 0 }, text: { value: `flag threshold ${fmt(opts.threshold)}` } },
    });
  }
  return {
    title: { text: opts.title, subtitle: flaggedCaption(opts.scores, opts.threshold) },
    description: `Score distribution: ${opts.title}`,
    width: WIDTH,
    height: 160,
    data: { values },
    layer,
  } as TopLevelSpec;
}

/** Grouped bars: one group per metric, one bar per series (e.g. retrieval modes). */
export function metricBarsSpec(opts: { title: string; subtitle?: string; rows: { series: string; metric: string; value: number }[]; metrics: string[] }): TopLevelSpec {
  const series = [...new Set(opts.rows.map((r) => r.series))];
  return {
    title: { text: opts.title, ...(opts.subtitle ? { subtitle: opts.subtitle } : {}) },
    description: `Metrics: ${opts.title}`,
    data: { values: opts.rows },
    mark: 'bar',
    width: { step: 16 },
    height: 200,
    encoding: {
      column: { field: 'metric', type: 'nominal', sort: opts.metrics, title: null, header: { labelOrient: 'bottom' } },
      x: { field: 'series', type: 'nominal', sort: series, axis: null },
      y: { field: 'value', type: 'quantitative', title: 'value (0..1)', scale: { domain: [0, 1] } },
      color: { field: 'series', type: 'nominal', title: null, sort: series, scale: { range: SERIES_COLORS } },
    },
  } as TopLevelSpec;
}

function fmt(x: number): string {
  return Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(Math.abs(x) >= 1 ? 2 : 3);
}

/**
 * Risk-coverage curves (needs review, issue 28): selective accuracy of the most confident share of verdicts
 * against the share answered, one line per domain.
 */
export function riskCoverageSpec(opts: { title: string; subtitle?: string; curves: { name: string; points: { coverage: number; accuracy: number }[] }[]; target?: number }): TopLevelSpec {
  const values = opts.curves.flatMap((c) => c.points.map((p) => ({ series: c.name, coverage: p.coverage, accuracy: p.accuracy })));
  const names = opts.curves.map((c) => c.name);
  const layer: unknown[] = [
    {
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'coverage', type: 'quantitative', title: 'coverage (share of verdicts answered, most confident first)', scale: { domain: [0, 1] } },
        y: { field: 'accuracy', type: 'quantitative', title: 'selective accuracy', scale: { domain: [0, 1] } },
        color: { field: 'series', type: 'nominal', title: null, sort: names, scale: { range: SERIES_COLORS } },
      },
    },
  ];
  if (opts.target !== undefined) layer.push({ data: { values: [{ y: opts.target }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#888' }, encoding: { y: { field: 'y', type: 'quantitative' } } });
  return {
    title: { text: opts.title, ...(opts.subtitle ? { subtitle: opts.subtitle } : {}) },
    description: `Risk-coverage: ${opts.title}`,
    width: 360,
    height: 240,
    data: { values },
    layer,
  } as TopLevelSpec;
}
