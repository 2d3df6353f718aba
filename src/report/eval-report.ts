/**
 * A self-contained HTML page for saved evaluation results: inline CSS, the charts as inline SVG made on
 * this machine (charts.ts), each with a caption and the numbers beside it as a table. No scripts, fonts,
 * images or anything else fetched: it opens offline and can be attached or committed.
 */
import { readFile } from 'node:fs/promises';
import { renderSvg } from './charts.js';
import { sectionsFor, type ResultFile, type Section, type Table } from './eval-figures.js';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Reads result JSON files; a file that is missing or not JSON is named in the error. */
export async function loadResultFiles(paths: readonly string[]): Promise<ResultFile[]> {
  return Promise.all(
    paths.map(async (name) => {
      let text: string;
      try {
        text = await readFile(name, 'utf8');
      } catch (e) {
        throw new Error(`${name}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give the path of a result JSON, e.g. eval-results/citation-detection.json`);
      }
      try {
        return { name, data: JSON.parse(text) as unknown };
      } catch (e) {
        throw new Error(`${name}: not JSON (${(e as Error).message})`);
      }
    }),
  );
}

const CSS = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1d2329}
header,main{max-width:1060px;margin:0 auto;padding:16px 20px}
header{background:#fff;border-bottom:1px solid #d9dee4;max-width:none}header>div{max-width:1060px;margin:0 auto}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;margin:1.8em 0 .4em}
.meta{color:#5d6b78;font-size:.85em}.meta code{word-break:break-all}
nav ol{margin:.4em 0;padding-left:1.3em}
figure{background:#fff;border:1px solid #d9dee4;border-radius:6px;margin:14px 0;padding:12px;overflow-x:auto}
figure svg{max-width:100%;height:auto}
figcaption{color:#3d4852;font-size:.9em;margin-top:6px}
table{border-collapse:collapse;background:#fff;font-size:.85em;margin:10px 0;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:600;padding:4px 0}
th,td{border:1px solid #d9dee4;padding:3px 8px;text-align:left;vertical-align:top}th{background:#eef1f5}
details{margin:8px 0}summary{cursor:pointer;color:#1f5fa8}
.table-wrap{max-width:100%;overflow-x:auto}
`;

/** A table in a wrapper that scrolls sideways when the table is wider than the page (it never overflows its card). */
function tableHtml(t: Table): string {
  return `<div class="table-wrap"><table><caption>${escapeHtml(t.caption)}</caption><thead><tr>${t.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${t.rows
    .map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(String(v))}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
}

async function sectionHtml(s: Section, i: number): Promise<string> {
  const figures = await Promise.all(
    s.figures.map(async (f) => `<figure id="s${i}-${escapeHtml(f.id)}">${await renderSvg(f.spec, `s${i}-${f.id}-`)}<figcaption>${escapeHtml(f.caption)}</figcaption></figure>`),
  );
  // Long per-item tables fold away; short summary tables stay open.
  const tables = s.tables.map((t) => (t.folded || t.rows.length > 12 ? `<details><summary>${escapeHtml(t.caption)} (${t.rows.length} rows)</summary>${tableHtml(t)}</details>` : tableHtml(t)));
  return `<section id="s${i}"><h2>${escapeHtml(s.heading)}</h2><div class="meta">${s.source.map((l) => `<div><code>${escapeHtml(l)}</code></div>`).join('')}</div>${figures.join('\n')}${tables.join('\n')}</section>`;
}

/** The report page for these results (see eval-figures.ts for the shapes it reads). */
export async function renderEvalReport(files: readonly ResultFile[], opts: { title?: string; createdAt?: Date } = {}): Promise<string> {
  const sections = sectionsFor(files);
  const title = opts.title ?? 'veracite evaluation report';
  const body = await Promise.all(sections.map((s, i) => sectionHtml(s, i)));
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style></head>
<body>
<header><div><h1>${escapeHtml(title)}</h1>
<div class="meta">${files.length} result file${files.length === 1 ? '' : 's'} · made ${escapeHtml((opts.createdAt ?? new Date()).toISOString())} · charts drawn locally (Vega-Lite, SVG)</div>
<nav aria-label="Sections"><ol>${sections.map((s, i) => `<li><a href="#s${i}">${escapeHtml(s.heading)}</a></li>`).join('')}</ol></nav>
</div></header>
<main>
${body.join('\n')}
</main></body></html>
`;
}

/** `eval report FILE...`: read the result files and render the page. */
export async function evalReportFromFiles(paths: readonly string[], opts: { title?: string } = {}): Promise<string> {
  if (!paths.length) throw new Error('no result files given: pass one or more result JSON files, e.g. eval-results/*.json');
  return renderEvalReport(await loadResultFiles(paths), opts);
}
