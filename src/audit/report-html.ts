/**
 * The audit as one self-contained HTML page: inline CSS, no scripts, no fonts, images or other external
 * assets (it opens offline and can be attached to a talk-page discussion). Links to sources are plain
 * anchors, only for http(s) URLs. Citations whose source was scored come first, least verifiable first;
 * citations whose source could not be read (dead, unreachable, PDF, not found) follow in their own
 * section, since "could not check" is not "does not support".
 * Every piece of text from the article or a source is HTML-escaped.
 */
import { auditEvidenceRole, claimTerms, type EvidenceRole } from '../highlight/evidence-role.js';
import { evidenceSentenceHtml, roleCss, roleLegendHtml } from '../highlight/render.js';
import type { EvidenceSentence } from './score-document.js';
import { coverageInWords } from '../verify/coverage.js';
import type { AuditReport, CitationAudit, CitationBand, Suggestion } from './types.js';
import { BAND_THRESHOLDS, citationBand } from './bands.js';
import { orderForReport, reportScale, type FlagSignal, type ReportScale } from './report-scale.js';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function safeHref(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function link(url: string | undefined, text: string): string {
  const href = safeHref(url);
  return href ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${escapeHtml(text)}</a>` : escapeHtml(text);
}

/** Escapes `text` and marks the words it shares with the claim (content words, case-insensitive). */
export function highlight(text: string, claimWords: ReadonlySet<string>): string {
  return text
    .split(/([\p{L}\p{N}]+)/u)
    .map((part, i) => (i % 2 === 1 && claimWords.has(part.toLowerCase()) ? `<mark>${escapeHtml(part)}</mark>` : escapeHtml(part)))
    .join('');
}

const CSS = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f6f4;color:#202122}
header,main{max-width:1000px;margin:0 auto;padding:16px 20px}
header{background:#fff;border-bottom:1px solid #ddd;max-width:none}
header>div{max-width:1000px;margin:0 auto}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.5em 0 .5em}
.summary{display:flex;flex-wrap:wrap;gap:8px;margin:.6em 0}
.pill{background:#eaecf0;border-radius:12px;padding:2px 10px;font-size:.9em}
.todo{margin:.3em 0;color:#202122}.pill.bad{background:#fee7e6;color:#b32424}.pill.warn{background:#fef6e7;color:#8a5a00}.pill.ok{background:#d5fdf4;color:#14866d}
.cit{background:#fff;border:1px solid #ddd;border-left:6px solid #a2a9b1;border-radius:4px;margin:12px 0;padding:10px 14px}
.cit.flagged{border-left-color:#d33}.cit.low{border-left-color:#fc3}.cit.high{border-left-color:#00af89}.cit.unchecked{border-left-color:#72777d}
.claim{font-size:1.05em;margin:.3em 0}.ctx{color:#54595d;font-size:.9em}
.meta{color:#54595d;font-size:.85em}
.score{font-weight:600;font-variant-numeric:tabular-nums}
.bar{display:inline-block;width:90px;height:8px;background:#eaecf0;border-radius:4px;vertical-align:middle;margin-left:6px;overflow:hidden}
.bar>span{display:block;height:100%;background:#36c}
ol.ev-list{margin:.3em 0 .3em 1.2em;padding:0}ol.ev-list li{margin:.3em 0}
figure.chart{background:#fff;border:1px solid #ddd;border-radius:4px;margin:12px 0;padding:10px;overflow-x:auto}figure.chart svg{max-width:100%;height:auto}figcaption{color:#54595d;font-size:.85em}
.sugg{background:#f8f9fa;border:1px solid #eaecf0;border-radius:4px;padding:6px 10px;margin:6px 0}
details summary{cursor:pointer;color:#36c;font-size:.9em}
table.prov{border-collapse:collapse;font-size:.85em}table.prov td{border-top:1px solid #eee;padding:2px 8px;vertical-align:top}
code{font-size:.85em;word-break:break-all}
`;

function scoreClass(c: CitationAudit, scale: ReportScale): string {
  if (!c.verification) return 'unchecked';
  if (c.verification.flagged) return 'flagged';
  // Green only for the supported band (bands.ts): never below its threshold.
  const band = (c.band ?? citationBand(c)).band;
  if (band !== 'supported') return 'low';
  const x = scale.of(c);
  // "Low": not flagged, but more likely unsupported than supported (on the probability scale), or within
  // a margin above the threshold on a raw signal (a logit-like score for the ranker, 0..1 for the engine).
  if (scale.kind === 'probability') return x < 0.5 ? 'low' : 'high';
  if (scale.threshold !== undefined) return x <= (scale.bounded ? scale.threshold * 1.5 : scale.threshold + 1) ? 'low' : 'high';
  return x < 0.5 ? 'low' : 'high';
}

function fmt(n: number): string {
  return Number.isFinite(n) ? n.toFixed(3) : String(n);
}

/** A number on the report's scale: with a bar when the scale is bounded (0..1). */
function scaled(x: number, scale: ReportScale): string {
  return scale.bounded ? scoreBar(x) : `<span class="score">${fmt(x)}</span>`;
}

function scoreBar(score: number): string {
  const w = Math.max(0, Math.min(1, score)) * 100;
  return `<span class="score">${fmt(score)}</span><span class="bar"><span style="width:${w.toFixed(0)}%"></span></span>`;
}

/**
 * The role of an evidence sentence (src/highlight): today's engine gives one score per sentence, how well
 * it matches the claim, so the sentence is "relevant" or "not relevant" (when that score is a
 * probability); support / contradiction probabilities, when the engine gives them, take over.
 */
function roleOfEvidence(e: EvidenceSentence & { support?: number; contradict?: number }, probabilityScale: boolean): EvidenceRole | undefined {
  return auditEvidenceRole(e, probabilityScale);
}

function evidenceList(ev: readonly EvidenceSentence[], words: ReadonlySet<string>, probabilityScale: boolean, roles: (EvidenceRole | undefined)[]): string {
  if (!ev.length) return '';
  return `<ol class="ev-list">${ev
    .map((e) => {
      const role = roleOfEvidence(e, probabilityScale);
      roles.push(role);
      return `<li>${evidenceSentenceHtml(e.text, words, role)} <span class="meta">(${e.page !== undefined ? `p. ${e.page}, ` : ''}sentence ${e.sentenceIndex}, score ${fmt(e.score)})</span></li>`;
    })
    .join('')}</ol>`;
}

function suggestionHtml(s: Suggestion, words: ReadonlySet<string>, view: View): string {
  const passage = s.bestPassage ? `<div class="meta">best passage #${s.bestPassage.index}:</div><div>${highlight(s.bestPassage.text, words)}</div>` : '';
  const x = view.scale.ofSuggestion(s);
  const others = [view.scale.kind !== 'engine' ? `verification score ${fmt(s.score)}` : '', view.rankedByRanker && view.scale.kind !== 'ranker' ? `source-ranker score ${fmt(s.rerankScore)}` : ''].filter(Boolean).join(' · ');
  const score = x !== undefined ? `${view.scale.name} ${scaled(x, view.scale)}${others ? ` <span class="meta">(${others})</span>` : ''}` : `verification score ${scoreBar(s.score)}`;
  const names = s.coverage ? `<div class="meta">It ${escapeHtml(coverageInWords(s.coverage))}.</div>` : '';
  return `<div class="sugg"><div>${link(s.url, s.title || s.url || s.docId)} — ${score} <span class="meta">first-stage rank ${s.firstStageRank}${s.url ? '' : `, id ${escapeHtml(s.docId)}`}</span></div>${names}${passage}${s.evidence.length ? `<details><summary>evidence sentences</summary>${evidenceList(s.evidence, words, view.probabilityScale, view.roles)}</details>` : ''}</div>`;
}

/** What every citation block needs to know about the report. */
interface View {
  /** The one number shown per citation and its threshold (report-scale.ts). */
  scale: ReportScale;
  /** The engine's scores are probabilities (the trained head): sentences can be called relevant or not. */
  probabilityScale: boolean;
  rankedByRanker: boolean;
  /** Roles shown, for the legend. */
  roles: (EvidenceRole | undefined)[];
}

const BAND_CLASS: Record<CitationBand, string> = { supported: 'ok', 'partly-supported': 'warn', 'needs-review': 'warn', 'not-supported': 'bad', 'could-not-check': '' };

function statusPill(c: CitationAudit): string {
  const s = c.source.status;
  const cls = s === 'found' ? 'ok' : s === 'dead' || s === 'blocked' ? 'bad' : 'warn';
  const via = c.source.via ? ` via ${c.source.via}` : '';
  return `<span class="pill ${cls}">source ${escapeHtml(s)}${escapeHtml(via)}</span>`;
}

function citationHtml(c: CitationAudit, rank: number | undefined, view: View): string {
  const { scale } = view;
  const words = claimTerms(c.claim);
  const v = c.verification;
  // The band is the badge (green only for supported); the flag status follows, never green.
  const band = c.band ?? citationBand(c);
  const bandPill = `<span class="pill band ${BAND_CLASS[band.band]}" data-band="${band.band}" title="${escapeHtml(band.reason)}">${escapeHtml(band.label)}</span>`;
  const verdict = c.status && c.status.status !== 'supported' ? `<span class="pill ${c.status.status === 'unverifiable' ? '' : c.status.status === 'unreadable' ? 'warn' : 'bad'}" title="${escapeHtml(c.status.reason)}">${escapeHtml(c.status.label)}</span>` : '';
  const pills = [
    rank !== undefined ? `<span class="pill">#${rank}</span>` : '',
    bandPill,
    verdict,
    statusPill(c),
    v?.flagged ? '<span class="pill bad">likely failed verification</span>' : '',
    c.tags.failedVerification ? '<span class="pill bad">tagged {{failed verification}}</span>' : '',
    c.tags.deadLink ? '<span class="pill warn">tagged {{dead link}}</span>' : '',
    c.urlDepth !== undefined ? `<span class="pill">URL depth ${c.urlDepth}</span>` : '',
  ].join(' ');
  const src = c.source;
  const srcLine = `${link(src.url ?? src.archiveUrl, src.title || src.url || src.archiveUrl || '(no URL)')}${src.work ? ` — <i>${escapeHtml(src.work)}</i>` : ''}${src.archiveUrl && src.url ? ` (${link(src.archiveUrl, 'archived')})` : ''}`;
  const section = c.sectionPath.length ? escapeHtml(c.sectionPath.join(' › ')) : 'lead';
  // The number shown first is the report's one scale (the calibrated probability of support, or the raw
  // signal the flag is decided on), with its threshold; the raw scores follow, labelled, for the curious.
  const raw = v ? [scale.kind !== 'engine' ? `verification score ${fmt(v.score)}` : '', v.rankerScore !== undefined && scale.kind !== 'ranker' ? `source-ranker score ${fmt(v.rankerScore)}` : '', v.support !== undefined && scale.kind !== 'support' ? `NLI support ${fmt(v.support)}` : '', v.similarity !== undefined ? `page similarity ${fmt(v.similarity)}` : ''].filter(Boolean).join(' · ') : '';
  const scoreLine = v
    ? `${capitalize(scale.name)} ${scaled(scale.of(c), scale)}${scale.threshold !== undefined ? ` <span class="meta">(flagged at ≤ ${fmt(scale.threshold)})</span>` : ''}${raw ? ` · <span class="meta">${raw}</span>` : ''}`
    : '';
  const body = v
    ? `<div>${scoreLine} <span class="meta">(max over ${v.sentencesScored}/${v.sentencesTotal} sentences scored${src.pageTitle ? ` of “${escapeHtml(src.pageTitle)}”` : ''})</span></div>${v.coverage ? `<div class="meta">The source ${escapeHtml(coverageInWords(v.coverage))}.</div>` : ''}${v.review ? `<div class="meta">The NLI verdict (${escapeHtml(v.supportLabel ?? '')}) ${escapeHtml(v.review.message)}.</div>` : ''}${evidenceList(v.evidence, words, view.probabilityScale, view.roles)}`
    : `<div class="meta">Not scored: ${escapeHtml(src.reason ?? src.status)}</div>${band.howToCheck ? `<div class="todo">To check it: ${escapeHtml(band.howToCheck)}</div>` : ''}`;
  const rec = c.recommendations;
  const recHtml = rec?.suggestions.length
    ? `<div><b>${rec.existingRank !== undefined ? `Existing source ranked ${rec.existingRank} of ${rec.candidates + 1} (by ${escapeHtml(rec.rankedBy)}); better-supporting sources` : 'Suggested sources'}:</b>${rec.suggestions.map((s) => suggestionHtml(s, words, { ...view, rankedByRanker: rec.rankedBy !== 'verification' })).join('')}</div>`
    : rec
      ? `<div class="meta">${rec.noBetterSource ? `${escapeHtml(capitalize(rec.noBetterSource))}. ` : ''}Existing source ranked first among ${rec.candidates + 1} candidates${rec.existingRank === undefined ? ' (no candidate found)' : ''}.</div>`
      : '';
  return `<section class="cit ${scoreClass(c, scale)}" id="c${c.index}">
<div>${pills}</div>
<div class="meta">Citation ${c.index + 1} · ${section}</div>
<p class="claim">${escapeHtml(c.claim)}</p>
${c.resolvedClaim ? `<div class="meta">Read as: “${escapeHtml(c.resolvedClaim)}”</div>` : ''}
${c.context.length ? `<details><summary>context</summary><p class="ctx">${escapeHtml(c.context.join(' '))}</p></details>` : ''}
<div class="meta">Cited source: ${srcLine}</div>
${body}
${recHtml}
</section>`;
}

const SIGNAL_WORDS: Record<FlagSignal, string> = { engine: 'verification score', ranker: 'source-ranker score', support: 'NLI probability of support' };

function capitalize(x: string): string {
  return x.charAt(0).toUpperCase() + x.slice(1);
}

/** Which engine judged (issue 29): the calibrated model profile among the models ("profile:<name>"), else the offline heads. */
function judgedBy(models: readonly { id: string; version: string }[]): string {
  const profile = models.find((m) => m.id.startsWith('profile:'));
  return profile ? `model profile ${profile.id.slice('profile:'.length)} (${profile.version})` : 'the offline heads (no model profile)';
}

export interface AuditHtmlOptions {
  /**
   * The score distribution with the flag threshold, as SVG (src/report/audit-chart.ts auditScoreChartSvg;
   * made apart because charts render asynchronously and this function is synchronous).
   */
  scoreChartSvg?: string;
}

export function renderAuditHtml(report: AuditReport, opts: AuditHtmlOptions = {}): string {
  const signal = report.provenance.flagging.signal ?? 'engine';
  const { scored, unscored } = orderForReport(report.citations, signal);
  const scale = reportScale(report);
  const th = scale.threshold;
  const scorer = report.provenance.models[0];
  const view: View = { scale, probabilityScale: scorer?.backend === 'trained', rankedByRanker: false, roles: [] };
  const scoredHtml = scored.map((c, i) => citationHtml(c, i + 1, view)).join('\n');
  const unscoredHtml = unscored.map((c) => citationHtml(c, undefined, view)).join('\n');
  const signalName = scale.name;
  const s = report.summary;
  const statusPills = Object.entries(s.byStatus)
    .map(([k, n]) => `<span class="pill ${k === 'found' ? 'ok' : 'warn'}">${escapeHtml(k)}: ${n}</span>`)
    .join(' ');
  const p = report.provenance;
  const provRows: [string, string][] = [
    ['index snapshot', p.snapshot ?? '(no index)'],
    ['models', p.models.map((m) => `${m.id} (${m.version})`).join(', ')],
    ['judged by', judgedBy(p.models)],
    ['config hash', p.configHash],
    ['flagging', p.flagging.threshold !== undefined ? `${SIGNAL_WORDS[p.flagging.signal ?? 'engine']} ≤ ${fmt(p.flagging.threshold)}${p.flagging.probabilityThreshold !== undefined ? ` (= probability of support ${fmt(p.flagging.probabilityThreshold)})` : ''} — ${p.flagging.source ?? ''}` : (p.flagging.disabledReason ?? 'off')],
    ['scoring', `${p.config.scoring.granularity}-level, query context “${p.config.queryContext}”, ≤${p.config.scoring.preselect || 'all'} units per page`],
    ['veracite', `${p.veraciteVersion}, ${p.createdAt}`],
  ];
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Citation audit: ${escapeHtml(report.article.title)}</title>
<style>${CSS}${roleCss()}</style></head>
<body>
<header><div>
<h1>Citation audit: ${escapeHtml(report.article.title)}</h1>
<div class="meta">${escapeHtml(report.article.origin)} (${escapeHtml(report.article.kind ?? report.article.format)}) · ${s.citations} citations in ${s.seconds.toFixed(1)} s</div>
<div class="summary"><span class="pill">scored: ${s.scored}</span><span class="pill bad">flagged: ${s.flagged}</span><span class="pill">with suggestions: ${s.withSuggestions}</span><span class="pill">tagged failed verification: ${s.taggedFailedVerification}</span>${statusPills}</div>
${s.byBand ? `<div class="summary">${Object.entries(s.byBand).map(([k, n]) => `<span class="pill ${BAND_CLASS[k as CitationBand]}">${escapeHtml(k.replace(/-/g, ' '))}: ${n}</span>`).join('')}</div>` : ''}
</div></header>
<main>
${opts.scoreChartSvg ? `<figure class="chart">${opts.scoreChartSvg}<figcaption>Each scored citation's ${signalName}${th !== undefined ? `; the audit flags those at or below ${fmt(th)} (${escapeHtml(p.flagging.source ?? '')})` : ''}.</figcaption></figure>` : ''}
<h2>Scored citations, least verifiable first (${scored.length})</h2>
<p class="meta">Ordered by the ${signalName}${th !== undefined ? `; citations at or below ${fmt(th)} are flagged` : ''}.${scale.meaning ? ` ${escapeHtml(scale.meaning)}` : ''} Left border: <span style="color:#d33">red</span> flagged, <span style="color:#b08000">yellow</span> not flagged but not in the supported band (partly supported, needs review), <span style="color:#00af89">green</span> the supported band only (probability of support ≥ ${fmt(BAND_THRESHOLDS.supportedFrom)}), grey not scored (each says how to check it). Evidence sentences:</p>
${roleLegendHtml(view.roles)}
${scoredHtml || '<p class="meta">None.</p>'}
<h2>Sources that could not be checked (${unscored.length})</h2>
<p class="meta">Dead links, cited works not found, unreadable sources (scanned PDFs…) and sources that could not be reached or have no URL: these are not judged unsupported.</p>
${unscoredHtml || '<p class="meta">None.</p>'}
<h2>Provenance</h2>
<table class="prov">${provRows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td><code>${escapeHtml(v)}</code></td></tr>`).join('')}</table>
</main></body></html>
`;
}
