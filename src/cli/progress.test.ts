import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { createProgress } from './progress.js';

/** What createProgress writes to a non-terminal stderr (a pipe, a CI log) while `run` drives it. */
function written(run: () => void): string[] {
  const out: string[] = [];
  const write = process.stderr.write;
  const tty = process.stderr.isTTY;
  Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
  process.stderr.write = ((chunk: string) => (out.push(chunk), true)) as typeof process.stderr.write;
  try {
    run();
  } finally {
    process.stderr.write = write;
    Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true });
  }
  return out.join('').split('\n').filter(Boolean);
}

describe('progress in a log (not a terminal)', () => {
  it('the final count is written once: not again by stop() when the last line already said it', async () => {
    // A bar writes its first line once the process is 2 s old (then at most every 2 s): wait for that.
    while (performance.now() < 2100) await new Promise((r) => setTimeout(r, 50));
    const same = written(() => {
      const bar = createProgress('check', 2, 'pairs');
      bar.update(1);
      bar.stop();
    });
    assert.deepEqual(same.map((l) => l.replace(/ \|.*/, '')), ['check: 1/2 pairs'], 'written by update(), not again by stop()');
    // Whether update() writes depends on the clock (a line at most every 2 s); what stop() adds does not: the
    // final count, once, and no line twice.
    const later = written(() => {
      const bar = createProgress('verify', 3, 'claims');
      bar.update(1);
      bar.update(3);
      bar.stop();
    }).map((l) => l.replace(/ \|.*/, ''));
    assert.equal(later.at(-1), 'verify: 3/3 claims');
    assert.equal(new Set(later).size, later.length, later.join(' / '));
    assert.deepEqual(written(() => createProgress('x', 1, 'items', { quiet: true }).stop()), []);
  });
});
