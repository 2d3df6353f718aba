/**
 * A node:test reporter that names each test file's time (issue 45 item 5), beside the spec reporter
 * (package.json "test" runs both into stdout, this one first): a line as each file finishes, a line every
 * minute for a file still running after two, and, when the run ends, the slowest files and any file that
 * never finished, written before the spec reporter's own summary, which stays the last thing printed.
 *
 * Why before: the runner hands every event to the reporters in the order they were given; this one writes
 * its table on the first summary line the runner emits ("tests N"), so it lands just above the spec
 * reporter's "ℹ tests N ... ℹ duration_ms" lines.
 */
import { relative } from 'node:path';
import { Transform } from 'node:stream';

// Overridable for the reporter's own test (test/file-times-reporter.test.ts).
const SLOW_MS = Number(process.env.FILE_TIMES_SLOW_MS) || 120_000;
const EVERY_MS = Number(process.env.FILE_TIMES_EVERY_MS) || 60_000;
const SHOWN = 10;

const rel = (file) => relative(process.cwd(), file) || file;
const secs = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;

export default class FileTimes extends Transform {
  constructor() {
    super({ writableObjectMode: true });
    /** Files running: path -> start time. */
    this.running = new Map();
    /** Files done: [path, ms, failed]. */
    this.done = [];
    this.summarised = false;
    this.timer = setInterval(() => this.stillRunning(), EVERY_MS);
    this.timer.unref();
  }

  _transform(event, _encoding, callback) {
    const { type, data } = event;
    // A file's own test: nesting 0, named by its path.
    const isFile = data && data.nesting === 0 && data.file && data.name === data.file;
    if (type === 'test:dequeue' && isFile && !this.running.has(data.file)) this.running.set(data.file, Date.now());
    else if (type === 'test:complete' && isFile) {
      const ms = data.details?.duration_ms ?? Date.now() - (this.running.get(data.file) ?? Date.now());
      this.running.delete(data.file);
      const failed = data.details?.passed === false;
      this.done.push([data.file, ms, failed]);
      this.push(`⏱ ${secs(ms)}  ${rel(data.file)}${failed ? '  (failed)' : ''}\n`);
    } else if (type === 'test:diagnostic' && data.nesting === 0 && !this.summarised && /^tests \d+/.test(data.message)) {
      this.summarised = true;
      this.push(this.table());
    }
    callback();
  }

  _flush(callback) {
    clearInterval(this.timer);
    if (!this.summarised) this.push(this.table());
    callback();
  }

  stillRunning() {
    const now = Date.now();
    for (const [file, start] of this.running) if (now - start >= SLOW_MS) this.push(`⏱ still running after ${secs(now - start).trim()}: ${rel(file)}\n`);
  }

  table() {
    const lines = [`⏱ slowest test files (${this.done.length} finished):`];
    for (const [file, ms, failed] of [...this.done].sort((a, b) => b[1] - a[1]).slice(0, SHOWN)) lines.push(`⏱ ${secs(ms)}  ${rel(file)}${failed ? '  (failed)' : ''}`);
    const now = Date.now();
    for (const [file, start] of this.running) lines.push(`⏱ did not finish (running ${secs(now - start).trim()}): ${rel(file)}`);
    return lines.join('\n') + '\n';
  }
}
