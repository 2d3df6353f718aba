/**
 * The audit as one self-contained HTML page: inline CSS, no scripts, no fonts, images or other external
 * assets (it opens offline and can be attached to a talk-page discussion). Links to sources are plain
 * anchors, only for http(s) URLs. Citations whose source was scored come first, least verifiable first;
 * citations whose source could not be read (dead, unreachable, PDF, not found) follow in their own
 * section, since "could not check" is not "does not support".
 * Read at a glance (issue 31): each card shows the citation's number in the article ("#22", as the CLI, the
 * API and the web page), one band, one number (the probability of support, or the raw flag signal without a
 * calibration), one line in words, the cited source and any better one; every diagnostic (the other scores,
 * the flag threshold, where the page came from, the evidence, the context) is behind one "details" toggle.
 * Thresholds are printed only when something was scored. The to-do list of flagged citations is linked
 * as data: URLs (CSV, wikitext), so the page stays one file without scripts.
 * Every piece of text from the article or a source is HTML-escaped.
 */
import { auditEvidenceRole, claimTerms, type EvidenceRole } from '../highlight/evidence-role.js';
import { evidenceSentenceHtml, roleCss, roleLegendHtml } from '../highlight/render.js';
import type { EvidenceSentence } from './score-document.js';
import { coverageInWords } from '../verify/coverage.js';
import type { AuditReport, CitationAudit, CitationBand, Suggestion } from './types.js';
import { BAND_LABELS, BAND_THRESHOLDS, citationBand, type BandInfo } from './bands.js';
import { todoCsv, todoItems, todoWikitext } from './todo.js';
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
.head{display:flex;flex-wrap:wrap;gap:6px;align-items:center}.num{font-weight:700;font-variant-numeric:tabular-nums;min-width:2.2em}
.verdict{margin:.3em 0}.verdict>.plain:not(:first-child){margin-left:6px}
.todo-links{margin:.3em 0;font-size:.9em}a.download{font-weight:600}
ul.sugg-list{margin:.2em 0 .4em 1.2em;padding:0}ul.sugg-list li{margin:.15em 0}
ul.diag-list{margin:.3em 0 .3em 1.2em;padding:0;font-size:.9em;color:#54595d}
details.diag{margin-top:4px}.prov-box{margin-top:2em}
@media print{details{display:block}}
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

/** A suggested source, one line: its link and its number on the report's scale. */
function suggestionLine(s: Suggestion, view: View): string {
  const x = view.scale.ofSuggestion(s);
  const name = x !== undefined ? view.scale.name : 'verification score';
  // A source found by search comes with a ready citation to paste (and who found it).
  const cite = s.template ? `<br><code class="cite">${escapeHtml(s.template)}</code>${s.foundBy ? ` <small>found by ${escapeHtml(s.foundBy.provider)} for “${escapeHtml(s.foundBy.query)}”</small>` : ''}` : '';
  return `<li>${link(s.url, s.title || s.url || s.docId)} — ${escapeHtml(name)} ${headline(x ?? s.score, x === undefined || view.scale.bounded)}${cite}</li>`;
}

/** A suggested source's diagnostics, for the card's details: the other scores, the best passage, the evidence. */
function suggestionDetails(s: Suggestion, i: number, words: ReadonlySet<string>, view: View): string {
  const others = [view.scale.kind !== 'engine' ? `verification score ${fmt(s.score)}` : '', view.rankedByRanker && view.scale.kind !== 'ranker' ? `source-ranker score ${fmt(s.rerankScore)}` : '', `first-stage rank ${s.firstStageRank}`, s.url ? '' : `id ${s.docId}`].filter(Boolean).join(' · ');
  const passage = s.bestPassage ? `<div class="meta">Best passage #${s.bestPassage.index}:</div><div>${highlight(s.bestPassage.text, words)}</div>` : '';
  const names = s.coverage ? `<div class="meta">It ${escapeHtml(coverageInWords(s.coverage))}.</div>` : '';
  const ev = s.evidence.length ? `<div class="meta">Evidence sentences:</div>${evidenceList(s.evidence, words, view.probabilityScale, view.roles)}` : '';
  return `<div class="sugg"><div>Suggested source ${i + 1}: ${link(s.url, s.title || s.url || s.docId)} <span class="meta">(${escapeHtml(others)})</span></div>${names}${passage}${ev}</div>`;
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

/** Where the cited page's text came from, in words. */
const VIA_WORDS: Record<string, string> = { index: 'the index', snapshot: 'a saved copy (--sources)', cache: 'the page cache', fetch: 'the web (--fetch)', archive: 'an archived copy', api: 'an open metadata service' };

/**
 * The one plain-language line of a citation (issue 31): what its band means for an editor. The flag
 * ("likely fails verification") is said here and nowhere else on the card.
 */
export function plainLine(c: CitationAudit, band: BandInfo = c.band ?? citationBand(c)): string {
  const v = c.verification;
  if (!v) return `Could not check: ${c.source.reason ?? c.error ?? `source ${c.source.status}`}.`;
  // Without a probability (an explicit --threshold, an old calibration) the flag alone decides.
  if (v.flagged && (band.band === 'not-supported' || v.probability === undefined)) return 'Likely fails verification: the cited source does not appear to support this claim.';
  if (v.flagged) return 'Needs review: flagged as likely failing verification, though the probability of support says otherwise.';
  switch (band.band) {
    case 'supported':
      return 'The cited source supports this claim.';
    case 'partly-supported':
      return 'The cited source supports part of this claim; check the rest.';
    case 'not-supported':
      return v.contradicted ? 'The cited source appears to contradict this claim.' : 'The cited source does not appear to support this claim.';
    case 'needs-review':
      return v.contradicted ? 'Needs review: the source appears to contradict this claim, but the signals conflict.' : 'Too close to call: read the source.';
    default:
      return '';
  }
}

/** The one number of a card: on the report's scale, 2 decimals (3 for an unbounded raw score), with a bar when bounded. */
function headline(x: number, bounded: boolean): string {
  if (!bounded) return `<span class="score">${fmt(x)}</span>`;
  const w = Math.max(0, Math.min(1, x)) * 100;
  return `<span class="score">${Number.isFinite(x) ? x.toFixed(2) : String(x)}</span><span class="bar"><span style="width:${w.toFixed(0)}%"></span></span>`;
}

function citationHtml(c: CitationAudit, view: View): string {
  const { scale } = view;
  const words = claimTerms(c.claim);
  const v = c.verification;
  const number = c.index + 1;
  // The band is the badge (green only for supported); the tags the article already carries follow.
  const band = c.band ?? citationBand(c);
  const bandPill = `<span class="pill band ${BAND_CLASS[band.band]}" data-band="${band.band}" title="${escapeHtml(band.reason)}">${escapeHtml(band.label)}</span>`;
  const pills = [
    bandPill,
    c.tags.failedVerification ? '<span class="pill bad">tagged {{failed verification}}</span>' : '',
    c.tags.deadLink ? '<span class="pill warn">tagged {{dead link}}</span>' : '',
  ].join(' ');
  const src = c.source;
  const srcLine = `${link(src.url ?? src.archiveUrl, src.title || src.url || src.archiveUrl || '(no URL)')}${src.work ? ` — <i>${escapeHtml(src.work)}</i>` : ''}${src.archiveUrl && src.url ? ` (${link(src.archiveUrl, 'archived')})` : ''}`;
  const section = c.sectionPath.length ? escapeHtml(c.sectionPath.join(' › ')) : 'lead';
  // One number (the report's scale: the probability of support, or the raw signal the flag is decided on)
  // and one line in words; everything else is in the details.
  const verdictLine = v
    ? `<p class="verdict">${capitalize(scale.name)} ${headline(scale.of(c), scale.bounded)} <span class="plain">${escapeHtml(plainLine(c, band))}</span></p>`
    : `<p class="verdict"><span class="plain">${escapeHtml(plainLine(c, band))}</span></p>${band.howToCheck ? `<div class="todo">To check it: ${escapeHtml(band.howToCheck)}</div>` : ''}`;
  const rec = c.recommendations;
  const better = rec?.suggestions.length
    ? `<div class="better"><b>${rec.existingRank !== undefined ? 'Better-supporting sources' : 'Suggested sources'}:</b><ul class="sugg-list">${rec.suggestions.map((s) => suggestionLine(s, view)).join('')}</ul></div>`
    : '';
  // Diagnostics: why this band, the flag and its threshold, the raw scores, where the source came from, the evidence.
  const d: string[] = [];
  d.push(`<li>Why this band: ${escapeHtml(band.reason)}.</li>`);
  if (v && scale.threshold !== undefined) d.push(`<li>${v.flagged ? 'Flagged' : 'Not flagged'}: the audit flags a citation as likely failing verification ${scale.kind === 'probability' ? `below a ${escapeHtml(scale.name)} of ${fmt(scale.threshold)} (the not-supported band), or where the source states otherwise` : `at a ${escapeHtml(scale.name)} ≤ ${fmt(scale.threshold)}`}${c.decision?.tag ? '; a {{failed verification}} tag is proposed' : v.flagged ? '; no tag proposed: read the source' : ''}.</li>`);
  if (v) {
    const raw = [scale.kind !== 'engine' ? `verification score ${fmt(v.score)}` : '', v.rankerScore !== undefined && scale.kind !== 'ranker' ? `source-ranker score ${fmt(v.rankerScore)}` : '', v.support !== undefined && scale.kind !== 'support' ? `NLI support ${fmt(v.support)}` : '', v.similarity !== undefined ? `page similarity ${fmt(v.similarity)}` : ''].filter(Boolean);
    d.push(`<li>Scores: ${scale.name} ${fmt(scale.of(c))}${raw.length ? ` · ${raw.join(' · ')}` : ''} (max over ${v.sentencesScored}/${v.sentencesTotal} sentences scored${src.pageTitle ? ` of “${escapeHtml(src.pageTitle)}”` : ''}).</li>`);
    if (v.coverage) d.push(`<li>The source ${escapeHtml(coverageInWords(v.coverage))}.</li>`);
    if (v.review) d.push(`<li>The NLI verdict (${escapeHtml(v.supportLabel ?? '')}) ${escapeHtml(v.review.message)}.</li>`);
  }
  d.push(`<li>Source: ${escapeHtml(src.status === 'found' ? `read from ${VIA_WORDS[src.via ?? ''] ?? src.via ?? 'the index'}` : `${src.status}${src.reason ? ` (${src.reason})` : ''}`)}${c.urlDepth !== undefined ? `; URL depth ${c.urlDepth}` : ''}.</li>`);
  if (rec) d.push(`<li>${escapeHtml(recommendationWords(rec))}</li>`);
  const evidence = v && v.evidence.length ? `<div class="meta">Evidence from the cited source:</div>${evidenceList(v.evidence, words, view.probabilityScale, view.roles)}` : '';
  const suggested = rec?.suggestions.length ? rec.suggestions.map((s, i) => suggestionDetails(s, i, words, { ...view, rankedByRanker: rec.rankedBy !== 'verification' })).join('') : '';
  const context = c.context.length ? `<div class="meta">Context in the article:</div><p class="ctx">${escapeHtml(c.context.join(' '))}</p>` : '';
  return `<section class="cit ${scoreClass(c, scale)}" id="c${c.index}">
<div class="head"><span class="num" title="citation ${number} in the article">#${number}</span> ${pills} <span class="meta">${section}</span></div>
<p class="claim">${escapeHtml(c.claim)}</p>
${c.resolvedClaim ? `<div class="meta">Read as: “${escapeHtml(c.resolvedClaim)}”</div>` : ''}
${verdictLine}
<div class="meta">Cited source: ${srcLine}</div>
${better}
<details class="diag"><summary>details</summary><ul class="diag-list">${d.join('')}</ul>${evidence}${suggested}${context}</details>
</section>`;
}

/** What the search for better sources found, in words (never "ranked first ... (no candidate found)"). */
export function recommendationWords(rec: NonNullable<CitationAudit['recommendations']>): string {
  const by = rec.rankedBy === 'verification' ? 'the verification score' : `the source ranker (${rec.rankedBy})`;
  if (rec.candidates === 0) return 'Better sources: no candidate document found in the index.';
  const n = `${rec.candidates} candidate document${rec.candidates === 1 ? '' : 's'}`;
  if (rec.suggestions.length) {
    return rec.existingRank !== undefined
      ? `Better sources: the cited source ranks ${rec.existingRank} of ${rec.candidates + 1} (it and ${n} from the index, by ${by}).`
      : `Better sources: the cited source could not be scored; ${n} from the index were ranked by ${by}.`;
  }
  const none = rec.noBetterSource ? capitalize(rec.noBetterSource) : 'No better source found';
  if (rec.existingRank === undefined) return `${none}: ${n} looked at.`;
  if (rec.existingRank === 1) return `${none}: the cited source ranks first among itself and ${n} (by ${by}).`;
  return `${none}: ${rec.existingRank - 1} of ${n} rank above the cited source (by ${by}) but none is relevant enough to suggest.`;
}

const SIGNAL_WORDS: Record<FlagSignal, string> = { engine: 'verification score', ranker: 'source-ranker score', support: 'NLI probability of support' };

function capitalize(x: string): string {
  return x.charAt(0).toUpperCase() + x.slice(1);
}

/** Which engine judged (issue 29): the calibrated model profile among the models ("profile:<name>"), else the offline heads. */
function judgedBy(models: readonly { id: string; version: string }[]): string {
  const profile = models.find((m) => m.id.startsWith('profile:'));
  return profile ? `model profile ${profile.id.slice('profile:'.length)} (${profile.version})` : 'the lite engine (the offline heads shipped in models/; no model profile)';
}

export interface AuditHtmlOptions {
  /**
   * The score distribution with the flag threshold, as SVG (src/report/audit-chart.ts auditScoreChartSvg;
   * made apart because charts render asynchronously and this function is synchronous).
   */
  scoreChartSvg?: string;
}

/** A file name from an article title: letters, digits, - and _ only. */
function fileStem(title: string): string {
  return title.replace(/[^\p{L}\p{N}_-]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 80) || 'audit';
}

/** A download link holding its file (a data: URL: the report stays one file, without scripts). */
function downloadLink(name: string, type: string, text: string, label: string): string {
  return `<a class="download" download="${escapeHtml(name)}" href="data:${type};charset=utf-8,${escapeHtml(encodeURIComponent(text))}">${escapeHtml(label)}</a>`;
}

export function renderAuditHtml(report: AuditReport, opts: AuditHtmlOptions = {}): string {
  const signal = report.provenance.flagging.signal ?? 'engine';
  const { scored, unscored } = orderForReport(report.citations, signal);
  const scale = reportScale(report);
  // A threshold is printed only when something was scored (on the scale the scores are shown on).
  const th = scored.length ? scale.threshold : undefined;
  const scorer = report.provenance.models[0];
  const view: View = { scale, probabilityScale: scorer?.backend === 'trained', rankedByRanker: false, roles: [] };
  const scoredHtml = scored.map((c) => citationHtml(c, view)).join('\n');
  const unscoredHtml = unscored.map((c) => citationHtml(c, view)).join('\n');
  const signalName = scale.name;
  const s = report.summary;
  const statusPills = Object.entries(s.byStatus)
    .map(([k, n]) => `<span class="pill ${k === 'found' ? 'ok' : 'warn'}">${escapeHtml(k)}: ${n}</span>`)
    .join(' ');
  const p = report.provenance;
  const flagging = !scored.length
    ? 'no citation was scored: no threshold applied'
    : p.flagging.threshold !== undefined
      ? p.flagging.probabilityThreshold !== undefined
        ? `probability of support below ${fmt(p.flagging.probabilityThreshold)} (the not-supported band; a {{failed verification}} tag is proposed below ${fmt(p.flagging.tagBelow ?? p.flagging.probabilityThreshold)} or where the source states otherwise) — probability calibrated by ${p.flagging.source ?? ''}`
        : `${SIGNAL_WORDS[p.flagging.signal ?? 'engine']} ≤ ${fmt(p.flagging.threshold)} — ${p.flagging.source ?? ''}`
      : (p.flagging.disabledReason ?? 'off');
  const provRows: [string, string][] = [
    ['index snapshot', p.snapshot ?? '(no index)'],
    ['models', p.models.map((m) => `${m.id} (${m.version})`).join(', ')],
    ['judged by', judgedBy(p.models)],
    ['config hash', p.configHash],
    ['flagging', flagging],
    ['scoring', `${p.config.scoring.granularity}-level, query context “${p.config.queryContext}”, ≤${p.config.scoring.preselect || 'all'} units per page`],
    ['veracite', `${p.veraciteVersion}, ${p.createdAt}`],
  ];
  const todo = todoItems(report);
  const stem = fileStem(report.article.title);
  const created = new Date(p.createdAt);
  const todoLinks = todo.length
    ? `<div class="todo-links">To-do list of the ${todo.length} flagged citation${todo.length === 1 ? '' : 's'}: ${downloadLink(`${stem}-todo.csv`, 'text/csv', todoCsv(todo), 'CSV')} · ${downloadLink(`${stem}-todo.txt`, 'text/plain', todoWikitext(todo, { title: report.article.title, date: Number.isNaN(created.getTime()) ? new Date() : created }), 'wikitext with {{failed verification}} tags')}</div>`
    : '';
  const bandSummary = s.byBand
    ? Object.entries(s.byBand)
        .map(([k, n]) => `<span class="pill ${BAND_CLASS[k as CitationBand]}" data-band="${k}">${escapeHtml(BAND_LABELS[k as CitationBand] ?? k)}: ${n}</span>`)
        .join('')
    : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Citation audit: ${escapeHtml(report.article.title)}</title>
<style>${CSS}${roleCss()}</style></head>
<body>
<header><div>
<h1>Citation audit: ${escapeHtml(report.article.title)}</h1>
<div class="meta">${escapeHtml(report.article.origin)} (${escapeHtml(report.article.kind ?? report.article.format)}) · ${s.citations} citations in ${s.seconds.toFixed(1)} s · citations are numbered as in the article (#1 is its first)</div>
<div class="summary">${bandSummary}<span class="pill bad">likely fail verification: ${s.flagged}</span>${s.judgeUnreadable ? `<span class="pill warn" data-judge-unreadable="${s.judgeUnreadable}">judge could not answer (needs review): ${s.judgeUnreadable}</span>` : ''}</div>
${todoLinks}
<details><summary>more counts</summary><div class="summary"><span class="pill">scored: ${s.scored}</span><span class="pill">with suggestions: ${s.withSuggestions}</span><span class="pill">tagged failed verification: ${s.taggedFailedVerification}</span>${statusPills}</div></details>
</div></header>
<main>
${opts.scoreChartSvg && scored.length ? `<figure class="chart">${opts.scoreChartSvg}<figcaption>Each scored citation's ${signalName}${th !== undefined ? `; the audit flags those at or below ${fmt(th)}` : ''}.</figcaption></figure>` : ''}
<h2>Scored citations, least verifiable first (${scored.length})</h2>
<p class="meta">Each card: the citation's number in the article, its band, the claim, the ${escapeHtml(signalName)} and what it means. “details” holds the evidence and the scores behind it.${scale.meaning ? ` The ${escapeHtml(signalName)} is the ${escapeHtml(scale.meaning)}.` : ''}</p>
<details><summary>how to read the colours</summary><p class="meta">Left border: <span style="color:#d33">red</span> likely fails verification${th !== undefined ? ` (${escapeHtml(signalName)} ≤ ${fmt(th)})` : ''}, <span style="color:#b08000">yellow</span> not flagged but not in the supported band (partly supported, needs review), <span style="color:#00af89">green</span> the supported band only (probability of support ≥ ${fmt((report.provenance.flagging.bands ?? BAND_THRESHOLDS).supportedFrom)}), grey not checked (each says how to check it). Evidence sentences:</p>
${roleLegendHtml(view.roles)}</details>
${scoredHtml || '<p class="meta">None.</p>'}
<h2>Sources that could not be checked (${unscored.length})</h2>
<p class="meta">Dead links, cited works not found, unreadable sources (scanned PDFs…) and sources that could not be reached or have no URL: these are not judged unsupported.</p>
${unscoredHtml || '<p class="meta">None.</p>'}
<details class="prov-box"><summary>How this report was made (provenance)</summary>
<table class="prov">${provRows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td><code>${escapeHtml(v)}</code></td></tr>`).join('')}</table>
</details>
</main></body></html>
`;
}
