/**
 * Progress display for long jobs: a bar with rates and ETA on a terminal, periodic plain lines otherwise
 * (CI logs, pipes), and nothing with --quiet.
 */
import cliProgress from 'cli-progress';

export interface ProgressReporter {
  /** `total`: a new estimate of the total (a dump's page count, estimated from the bytes read). */
  update(done: number, fields?: Record<string, string | number>, total?: number): void;
  stop(): void;
}

export function formatRate(n: number, seconds: number): string {
  const r = seconds > 0 ? n / seconds : 0;
  return r >= 100 ? r.toFixed(0) : r.toFixed(1);
}

export function formatEta(done: number, total: number, seconds: number): string {
  if (done <= 0 || total <= done) return done >= total ? '0s' : '?';
  const s = ((total - done) * seconds) / done;
  return s >= 3600 ? `${(s / 3600).toFixed(1)}h` : s >= 60 ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s` : `${s.toFixed(0)}s`;
}

/**
 * @param unit name of the counted items ("docs", "claims")
 * @param rates extra counters shown as rates, e.g. passages
 */
export function createProgress(label: string, initialTotal: number, unit: string, opts: { quiet?: boolean; rates?: string[] } = {}): ProgressReporter {
  const started = performance.now();
  const rates = opts.rates ?? [];
  let total = initialTotal;
  if (opts.quiet) return { update() {}, stop() {} };
  const elapsed = () => (performance.now() - started) / 1000;
  const line = (done: number, fields: Record<string, string | number>) => {
    const s = elapsed();
    const extra = rates.map((r) => `${formatRate(Number(fields[r] ?? 0), s)} ${r}/s`).join(', ');
    return `${label}: ${done}/${total || '?'} ${unit} | ${formatRate(done, s)} ${unit}/s${extra ? `, ${extra}` : ''} | ETA ${formatEta(done, total, s)}`;
  };
  if (!process.stderr.isTTY) {
    let last = 0;
    let lastFields: Record<string, string | number> = {};
    let lastDone = 0;
    // The count last written: stop() writes the final line unless that line already said it.
    let writtenDone = -1;
    return {
      update(done, fields = {}, estimate) {
        if (estimate !== undefined) total = estimate;
        lastDone = done;
        lastFields = fields;
        const now = performance.now();
        if (now - last > 2000) {
          last = now;
          writtenDone = done;
          process.stderr.write(`${line(done, fields)}\n`);
        }
      },
      stop() {
        if (writtenDone !== lastDone) process.stderr.write(`${line(lastDone, lastFields)}\n`);
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rates} | ETA {eta_formatted}`, hideCursor: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(total, 1), 0, { rates: '' });
  return {
    update(done, fields = {}, estimate) {
      if (estimate !== undefined && estimate !== bar.getTotal()) bar.setTotal(Math.max(estimate, 1));
      const s = elapsed();
      const shown = [`${formatRate(done, s)} ${unit}/s`, ...rates.map((r) => `${formatRate(Number(fields[r] ?? 0), s)} ${r}/s`)].join(', ');
      if (done > bar.getTotal()) bar.setTotal(done);
      bar.update(done, { rates: shown });
    },
    stop() {
      bar.stop();
    },
  };
}
