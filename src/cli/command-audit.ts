/**
 * `veracite audit <article>`: check every citation of a Wikipedia article against its cited source (SIDE):
 * verification score (max passage score), failed-verification flag from a calibrated threshold, URL-depth
 * baseline, better sources from the index. Output: a text summary, JSON (--json / --out), a self-contained
 * HTML report (--html), the citations as KILT/WAFER records (--kilt) and the flagged citations as a worklist
 * (--todo CSV, --todo-wikitext: each claim with its {{failed verification}} tag). Citations are numbered as in
 * the article ("#22"), everywhere. Live fetching only with --fetch.
 * The audit itself is assembled by the composition root (src/app/audit.ts), as for the server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { checkCitationCap, citationsToRead } from '../audit/citation-cap.js';
import { BAND_LABELS, BAND_THRESHOLDS, citationBand, countByBand, type CitationBand } from '../audit/bands.js';
import { INPUT_FORMATS, type InputFormat } from '../documents/input-formats.js';
import { count } from './format.js';
import { orderForReport, reportScale } from '../audit/report-scale.js';
import type { AuditReport } from '../audit/types.js';
import { openApp } from './open-app.js';
import { addOptions, oneOf, positiveInt, type OptionPick } from './options.js';
import { createProgress } from './progress.js';
import { checkInputFile } from './input-file.js';
import { EXIT } from '../util/exit-codes.js';

export const AUDIT_OPTIONS: OptionPick = {
  index: ['index', 'noIndex'],
  models: ['embedder', 'scorer', 'device', 'cache', 'profile', 'judge', 'maxCalls'],
  retrieval: ['mode', 'depth'],
  scoring: true,
  audit: true,
  sources: true,
  parse: true,
  search: true,
};

interface AuditFlags extends Record<string, unknown> {
  format: InputFormat;
  title?: string;
  limit?: number;
  json?: boolean;
  out?: string;
  html?: string;
  kilt?: string;
  todo?: string;
  todoWikitext?: string;
  quiet?: boolean;
  all?: boolean;
}

async function saveText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

export function registerAuditCommand(program: Command): void {
  addOptions(
    program
      .command('audit')
      .description('check the citations of a Wikipedia article (or a Markdown / HTML report, a text or PDF document) against their sources and suggest better ones (SIDE)')
      .argument('<document>', 'wikitext, rendered Wikipedia HTML, KILT/WAFER .jsonl, Markdown, an HTML page, plain text or PDF; or a URL (with --fetch)')
      .option('--format <format>', `input format: ${INPUT_FORMATS.join('|')}`, oneOf('--format', INPUT_FORMATS), 'auto')
      .option('--title <title>', 'article title (wikitext files have none; default: from the file name)')
      .option('--limit <n>', 'first n citations only', positiveInt('--limit'))
      .option('--json', 'print the report JSON on stdout')
      .option('--out <file>', 'write the report JSON here')
      .option('--html <file>', 'write a self-contained HTML report here')
      .option('--kilt <file>', 'write the citations as KILT/WAFER JSONL records here')
      .option('--todo <file>', 'write the flagged citations as a CSV worklist here (number, section, claim, probability of support, why, source)')
      .option('--todo-wikitext <file>', 'write the flagged citations as a wikitext list, each claim with its {{failed verification}} tag')
      .option('--all', 'list every audited citation (default: the 10 least verifiable)')
      .option('--quiet', 'no progress output'),
    AUDIT_OPTIONS,
  ).action(async (article: string, flags: AuditFlags) => {
    const report = await runAudit(article, flags);
    if (flags.out) await saveText(flags.out, JSON.stringify(report, null, 2) + '\n');
    // The chart (vega) loads only for an HTML report (issue 31: the CLI answers at once).
    if (flags.html) await saveText(flags.html, await (await import('../report/audit-chart.js')).renderAuditHtmlWithChart(report));
    if (flags.todo || flags.todoWikitext) {
      const { todoItems, todoCsv, todoWikitext } = await import('../audit/todo.js');
      const items = todoItems(report);
      if (flags.todo) await saveText(flags.todo, todoCsv(items));
      if (flags.todoWikitext) await saveText(flags.todoWikitext, todoWikitext(items, { title: report.article.title, date: new Date(report.provenance.createdAt) }));
    }
    if (flags.json) console.log(JSON.stringify(report, null, 2));
    else printSummary(report, flags);
    // Citations none of whose sources could be read: the audit finished but checked nothing, and a script
    // must be able to tell that from "checked, nothing flagged" (exit 1, PARTIAL; the first line says why).
    if (report.summary.citations > 0 && report.summary.scored === 0) {
      if (flags.json) console.error(nothingCheckedLine(report));
      process.exitCode = EXIT.PARTIAL;
    }
  });
}

async function runAudit(article: string, flags: AuditFlags): Promise<AuditReport> {
  // The readers load when an audit runs, not at start-up (issue 31).
  const [{ loadDocumentInput, noCitationsReason }, { writeKiltWafer }] = await Promise.all([import('../documents/index.js'), import('../wiki/index.js')]);
  // Before the index and the models open: a document that is not there, or is empty, says so at once.
  await checkInputFile(article, 'the document', 'wikitext, Wikipedia HTML, KILT/WAFER .jsonl, Markdown, HTML, text or PDF, e.g. data/samples/audit/Breast_cancer_risk_factors.txt');
  // An audit is a batch run (many citations, nobody waiting on one request): MediaWiki is sent maxlag=5.
  const vc = await openApp(flags, AUDIT_OPTIONS, { base: { search: { batch: true } } });
  try {
    const src = vc.settings.sources;
    const fetchPolicy = { timeoutMs: src.timeoutMs, maxBytes: src.maxBytes, maxRedirects: src.maxRedirects };
    // --limit (or one past audit.maxCitations) applies while reading: a wikitext parse stops there.
    const cap = vc.settings.audit.maxCitations;
    const input = await loadDocumentInput(article, { format: flags.format, ...(flags.title ? { title: flags.title } : {}), fetch: src.fetch, fetchPolicy, maxCitations: citationsToRead(cap, flags.limit), reader: vc.documentReader() });
    checkCitationCap(input, cap, flags.limit);
    // No silent drops: a document that gave no citation says how it was read and what it lacked.
    if (input.citations.length === 0) console.error(`${article}: 0 citations: ${noCitationsReason(input.kind)}`);
    if (flags.kilt) {
      const r = await writeKiltWafer(flags.kilt, input.citations.map((c) => ({ ...c, source: { raw: '', ...c.source } })));
      if (!flags.quiet) console.error(`wrote ${r.written} WAFER records to ${flags.kilt}${r.skipped.length ? ` (${r.skipped.length} citations without URL left out)` : ''}`);
    }
    const pipeline = await vc.auditPipeline();
    if (!flags.quiet) for (const note of pipeline.notes) console.error(`note: ${note}`);
    const bar = createProgress(`audit ${input.title}`, input.citations.length, 'citations', { quiet: flags.quiet });
    try {
      return await pipeline.auditor.auditArticle(input, (p) => bar.update(p.done));
    } finally {
      bar.stop();
    }
  } finally {
    await vc.close();
  }
}

/** "checked nothing": the first line of an audit that read no source, with why (per source status) and what to do. */
export function nothingCheckedLine(report: AuditReport): string {
  const why = Object.entries(report.summary.byStatus).map(([k, n]) => `${k} ${n}`).join(', ');
  const advice = [...new Set(report.citations.map((c) => (c.band ?? citationBand(c)).howToCheck).filter((h): h is string => !!h))].slice(0, 2);
  const n = report.summary.citations;
  return `checked nothing: ${n === 1 ? "the 1 citation's source was not read" : `none of the ${n} citations' sources was read`} (${why || 'no sources'})${advice.length ? `; to check them: ${advice.join('; or ')}` : ''}`;
}

function printSummary(report: AuditReport, flags: AuditFlags): void {
  const s = report.summary;
  const statuses = Object.entries(s.byStatus).map(([k, n]) => `${k} ${n}`).join(', ');
  // An audit that could check nothing says so first, and why (the sources' statuses), before any figure.
  if (s.citations > 0 && s.scored === 0) console.log(nothingCheckedLine(report));
  // Flagged (the worklist) is derived from the bands: say which bands it counts, beside them.
  const flaggedBands = countByBand(report.citations.filter((c) => c.verification?.flagged));
  const flaggedWhy = Object.entries(flaggedBands).map(([k, n]) => `${BAND_LABELS[k as CitationBand]} ${n}`).join(', ');
  console.log(`${report.article.title}: ${count(s.citations, 'citation')} in ${s.seconds.toFixed(1)} s; sources: ${statuses || 'none'}; scored ${s.scored}, flagged ${s.flagged}${flaggedWhy ? ` (${flaggedWhy})` : ''}, with suggestions ${s.withSuggestions}`);
  // One tally: the bands (verify/decision.ts); "likely fails verification" is the not-supported band.
  if (s.byBand && Object.keys(s.byBand).length) console.log(`  bands: ${Object.entries(s.byBand).map(([k, n]) => `${BAND_LABELS[k as CitationBand]} ${n}`).join(', ')}`);
  if (s.judgeUnreadable) console.log(`  judge could not answer for ${count(s.judgeUnreadable, 'citation')} (its reply could not be read): needs review, whatever the probability`);
  // Better sources from search: a provider that failed is named (once, with the citations it failed for).
  const failed = new Map<string, number[]>();
  for (const c of report.citations) for (const f of c.recommendations?.search?.failures ?? []) failed.set(f, [...(failed.get(f) ?? []), c.index + 1]);
  for (const [f, which] of failed) console.log(`  ${f} (citations #${which.join(', #')})`);
  const fromSearch = report.citations.filter((c) => c.recommendations?.search).length;
  if (fromSearch) console.log(`  better sources searched for ${fromSearch} flagged or needs-review citation${fromSearch === 1 ? '' : 's'}; found for ${report.citations.filter((c) => c.recommendations?.search && c.recommendations.suggestions.length).length}`);
  // A citation that could not be checked says how to check it: one line per piece of advice, with the citations it applies to.
  const advice = new Map<string, number[]>();
  for (const c of report.citations) {
    const b = c.band ?? citationBand(c, report.provenance.flagging.bands ?? BAND_THRESHOLDS);
    if (b.band === 'could-not-check' && b.howToCheck) advice.set(b.howToCheck, [...(advice.get(b.howToCheck) ?? []), c.index + 1]);
  }
  if (advice.size) console.log('  could not check:');
  for (const [todo, which] of advice) console.log(`    ${which.length > 6 ? `#${which.slice(0, 6).join(', #')} and ${which.length - 6} more` : `#${which.join(', #')}`}: ${todo}`);
  const signal = report.provenance.flagging.signal ?? 'engine';
  const { scored } = orderForReport(report.citations, signal);
  const scale = reportScale(report);
  // Citations are numbered as in the article (#1 is its first), as in the HTML report, the API and the web page.
  // The threshold is printed only when something was scored, on the scale the numbers are shown on.
  const t = report.provenance.flagging.bands ?? BAND_THRESHOLDS;
  const bands = scale.kind === 'probability' ? ` (supported from ${t.supportedFrom.toFixed(2)}, partly from ${t.partlyFrom.toFixed(2)}, not supported below ${t.notSupportedBelow.toFixed(2)}; a {{failed verification}} tag is proposed only below ${t.tagBelow.toFixed(2)} or where the source states otherwise)` : scale.threshold !== undefined ? ` (likely fails verification at <= ${scale.threshold.toFixed(scale.bounded ? 2 : 3)})` : '';
  if (scored.length) console.log(`  least verifiable first, by ${scale.name}${bands}:`);
  const labelOf = (c: (typeof scored)[number]) => `${(c.band ?? citationBand(c, t)).label}${c.decision?.tag ? ' + tag' : ''}`;
  const shown = flags.all ? scored : scored.slice(0, 10);
  const width = Math.max(0, ...shown.map((c) => labelOf(c).length));
  for (const c of shown) {
    const x = scale.of(c);
    const label = labelOf(c);
    console.log(`  #${String(c.index + 1).padEnd(3)} ${scale.bounded ? x.toFixed(2) : x.toFixed(3)}  ${label.padEnd(width)}  ${c.claim.length > 90 ? c.claim.slice(0, 87) + '...' : c.claim}`);
  }
  if (scored.length > shown.length) console.log(`  ... ${scored.length - shown.length} more (--all lists every one)`);
  const outputs = [flags.out && `JSON ${flags.out}`, flags.html && `HTML ${flags.html}`, flags.kilt && `WAFER ${flags.kilt}`, flags.todo && `to-do CSV ${flags.todo}`, flags.todoWikitext && `to-do wikitext ${flags.todoWikitext}`].filter(Boolean);
  if (outputs.length) console.log(`wrote ${outputs.join(', ')}`);
}
