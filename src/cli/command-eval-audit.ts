/**
 * `veracite eval audit <article> --sources DIR --labels FILE`: an editor's own labelled article as an
 * evaluation. The article is audited exactly as `veracite audit` audits it (same settings, same pipeline),
 * and its flags are scored against the per-citation labels (format: src/eval/README.md): precision and
 * recall at the threshold in use, the PR curve, beside the URL-depth and {{failed verification}} baselines.
 */
import type { Command } from 'commander';
import { INPUT_FORMATS, type InputFormat } from '../documents/input-formats.js';
import { datasetName } from '../eval/dataset-name.js';
import { commandLine, saveJson, withJsonOutput } from './command-line.js';
import { AUDIT_OPTIONS } from './command-audit.js';
import { openApp } from './open-app.js';
import { addOptions, oneOf } from './options.js';
import { createProgress } from './progress.js';

interface EvalAuditFlags extends Record<string, unknown> {
  labels: string;
  format: InputFormat;
  title?: string;
  name?: string;
  skipUnlabelled?: boolean;
  out?: string;
  report?: string;
  json?: boolean;
  quiet?: boolean;
}

export function registerEvalAuditCommand(evalCmd: Command): void {
  addOptions(
    evalCmd
      .command('audit')
      .description("flag precision and recall of the audit on an article whose citations a person labelled (supported / partially_supported / not_supported), with the PR curve and baselines")
      .argument('<article>', 'the article: wikitext, Wikipedia HTML, KILT/WAFER .jsonl, or another document kind (see audit --format)')
      .requiredOption('--labels <file>', 'JSONL, one line per citation: {"citation": <#N or id>, "label": "supported|partially_supported|not_supported"} (src/eval/README.md)')
      .option('--format <format>', `input format: ${INPUT_FORMATS.join('|')}`, oneOf('--format', INPUT_FORMATS), 'auto')
      .option('--title <title>', 'article title (wikitext files have none; default: from the file name)')
      .option('--name <name>', 'name of the evaluation (default: the article file name)')
      .option('--skip-unlabelled', 'audit only labelled citations (default: every citation needs a label)')
      .option('--out <file>', 'result JSON (default eval-results/audit-<name>.json)')
      .option('--report <file>', 'also save the audit report itself')
      .option('--json', 'print the result JSON on stdout (the summary goes to stderr)')
      .option('--quiet', 'no progress output'),
    AUDIT_OPTIONS,
  ).action((article: string, flags: EvalAuditFlags, cmd: Command) =>
    withJsonOutput(flags.json, async () => {
      const [{ loadDocumentInput }, { runAuditEval }] = await Promise.all([import('../documents/index.js'), import('../eval/run-audit-eval.js')]);
      // Only the flags are scored: suggestions are not needed unless asked for.
      const vc = await openApp(flags, AUDIT_OPTIONS, { base: { audit: { recommend: false } } });
      try {
        const src = vc.settings.sources;
        const input = await loadDocumentInput(article, { format: flags.format, ...(flags.title ? { title: flags.title } : {}), fetch: src.fetch, fetchPolicy: { timeoutMs: src.timeoutMs, maxBytes: src.maxBytes, maxRedirects: src.maxRedirects } });
        const pipeline = await vc.auditPipeline();
        if (!flags.quiet) for (const note of pipeline.notes) console.error(`note: ${note}`);
        const name = flags.name ?? datasetName(article);
        const bar = createProgress(`eval audit ${name}`, input.citations.length, 'citations', { quiet: flags.quiet });
        const { result, report } = await runAuditEval({ auditor: pipeline.auditor, input, labels: flags.labels, name, unlabelled: flags.skipUnlabelled ? 'skip' : 'error', onProgress: (d) => bar.update(d) });
        bar.stop();
        const out = flags.out ?? `eval-results/audit-${name}.json`;
        const saved = { ...result, provenance: report.provenance, command: commandLine(cmd) };
        await saveJson(out, saved);
        if (flags.report) await saveJson(flags.report, report);
        const f = report.provenance.flagging;
        console.log(`${name}: ${result.n} labelled citations (${JSON.stringify(result.labelCounts)}), ${result.scored} scored; flags on the ${f.signal ?? 'engine'} score${f.threshold !== undefined ? ` at or below ${f.threshold.toFixed(4)}${f.probabilityThreshold !== undefined ? ` (= probability of support ${f.probabilityThreshold.toFixed(3)})` : ''}` : ` (no threshold: ${f.disabledReason})`}`);
        for (const [def, d] of Object.entries(result.definitions)) {
          const at = d.atThreshold;
          console.log(`  ${def.padEnd(27)} ${at ? `flagged ${at.flagged}, precision ${at.precision.toFixed(3)}, recall ${at.recall.toFixed(3)}` : 'no threshold'}; ROC AUC ${d.metrics.rocAuc.toFixed(3)}, AP ${d.metrics.averagePrecision.toFixed(3)} (${d.positives} positives)`);
        }
        for (const b of result.baselines) console.log(`  baseline ${b.name} (${b.n}): not_supported AUC ${b.metrics.not_supported.rocAuc.toFixed(3)}`);
        console.log(`saved ${out}`);
        return saved;
      } finally {
        await vc.close();
      }
    }),
  );
}
