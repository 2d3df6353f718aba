import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { boundedLines, type BoundedLine } from './bounded-lines.js';

async function lines(chunks: (string | Buffer)[], max: number): Promise<BoundedLine[]> {
  const out: BoundedLine[] = [];
  async function* src() {
    for (const c of chunks) yield c;
  }
  for await (const l of boundedLines(src(), max)) out.push(l);
  return out;
}

describe('boundedLines', () => {
  it('splits on \\n and \\r\\n across chunk edges, keeps empty lines and a last line without a newline', async () => {
    assert.deepEqual(await lines(['ab', 'c\r\nd', 'e\n\nf'], 100), [
      { line: 1, text: 'abc' },
      { line: 2, text: 'de' },
      { line: 3, text: '' },
      { line: 4, text: 'f' },
    ]);
    assert.deepEqual(await lines(['x\n'], 100), [{ line: 1, text: 'x' }]);
    assert.deepEqual(await lines([], 100), []);
  });

  it('a multi-byte character cut between chunks is decoded whole', async () => {
    const e = Buffer.from('é\n');
    assert.deepEqual(await lines([e.subarray(0, 1), e.subarray(1)], 100), [{ line: 1, text: 'é' }]);
  });

  it('a line over the budget is reported by number and size, and the lines after it read', async () => {
    assert.deepEqual(await lines(['ok\n', 'x'.repeat(6), 'x'.repeat(6), '\nafter\n'], 10), [
      { line: 1, text: 'ok' },
      { line: 2, overBytes: 12 },
      { line: 3, text: 'after' },
    ]);
    // Exactly the budget is within it.
    assert.deepEqual(await lines(['x'.repeat(10) + '\n'], 10), [{ line: 1, text: 'x'.repeat(10) }]);
  });
});
