/**
 * `veracite eval report FILE... --html OUT`: one self-contained page (SVG charts drawn locally, no CDN) from
 * saved evaluation results: precision-recall curves with baselines, reliability diagrams, confusion
 * matrices, score histograms by label (src/report).
 */
import type { Command } from 'commander';
import { writeFileAtomic } from '../util/atomic-file.js';

export function registerEvalReportCommand(evalCmd: Command): void {
  evalCmd
    .command('report')
    .description('a self-contained HTML page with charts (PR curves, reliability, confusion, histograms) from saved result JSON files')
    .argument('<files...>', 'result JSON files written by veracite eval / calibrate (e.g. eval-results/*.json)')
    .requiredOption('--html <file>', 'the page to write')
    .option('--title <title>', 'page title')
    .action(async (files: string[], flags: { html: string; title?: string }) => {
      const { evalReportFromFiles } = await import('../report/eval-report.js');
      const page = await evalReportFromFiles(files, flags.title ? { title: flags.title } : {});
      await writeFileAtomic(flags.html, page);
      console.log(`wrote ${flags.html} from ${files.length} result file${files.length === 1 ? '' : 's'}`);
    });
}
