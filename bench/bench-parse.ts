/**
 * Wikitext parse time against size (issue 35): heading-less one-paragraph articles whose sentences all end
 * in refs (what was quadratic: 200 kB 4 s, 800 kB 39 s, 2 MB > 180 s) and articles of ordinary ~1.5 kB
 * paragraphs without headings, from 100 kB to 10 MB. Each size is parsed in a fresh child process (no
 * warm JIT or cache from a smaller size); CPU seconds per MB is the figure that must stay flat, wall time
 * is reported beside it (the machine is shared). Not a test: saves bench/results/parse-scaling.json.
 *
 *   node --import tsx bench/bench-parse.ts [--sizes 100000,400000,1000000,2000000,4000000,10000000]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { headinglessWikitext } from '../src/server/testing/hostile-inputs.js';
import { parseWikitext } from '../src/wiki/index.js';
import { saveBenchResult } from './util.js';

/** Ordinary prose: ~1.5 kB paragraphs separated by blank lines, links, templates, named refs, no headings. */
function paragraphs(bytes: number): string {
  let out = '';
  let n = 0;
  while (out.length < bytes) {
    let p = '';
    while (p.length < 1500) {
      p += `Sentence ${n} is about the [[river|River ${n}]] measured at {{convert|${n}|km}}.<ref name="r${n % 50}">{{cite web |url=https://e.org/${n} |title=T${n}}}</ref> `;
      n++;
    }
    out += `${p}\n\n`;
  }
  return out;
}

const SELF = fileURLToPath(import.meta.url);
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100000,400000,1000000,2000000,4000000,10000000' }, child: { type: 'string' } } });

if (values.child) {
  // child: one parse, figures on stdout
  const [shape, size] = values.child.split(':') as ['headingless' | 'paragraphs', string];
  const text = shape === 'headingless' ? headinglessWikitext(Number(size)) : paragraphs(Number(size));
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const article = parseWikitext(text, { title: 'Bench' });
  const cpu = process.cpuUsage(c0);
  const refs = text.split('<ref').length - 1;
  const peak = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
  process.stdout.write(JSON.stringify({ shape, bytes: text.length, refs, citations: article.citations.length, wallS: (performance.now() - t0) / 1000, cpuS: (cpu.user + cpu.system) / 1e6, peakRssMb: Math.round(peak) }));
} else {
  const rows: Record<string, unknown>[] = [];
  for (const shape of ['headingless', 'paragraphs']) {
    for (const size of values.sizes!.split(',').map(Number)) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', SELF, '--child', `${shape}:${size}`], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (r.status !== 0) throw new Error(r.stderr);
      const row = JSON.parse(r.stdout) as { bytes: number; cpuS: number; wallS: number; citations: number; refs: number; peakRssMb: number };
      const mb = row.bytes / 1e6;
      const out = { ...row, cpuSPerMb: +(row.cpuS / mb).toFixed(2), wallSPerMb: +(row.wallS / mb).toFixed(2) };
      rows.push(out);
      console.log(`${shape.padEnd(11)} ${(mb).toFixed(2).padStart(6)} MB  ${String(row.citations).padStart(6)} citations  cpu ${row.cpuS.toFixed(2)} s (${out.cpuSPerMb} s/MB)  wall ${row.wallS.toFixed(2)} s  peak RSS ${row.peakRssMb} MB`);
    }
  }
  saveBenchResult('parse-scaling', { rows, loadAverage: (await import('node:os')).loadavg() });
}
