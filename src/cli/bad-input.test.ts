/**
 * Bad input as a new user gives it: a binary file as a source or an article, an empty or whitespace claim,
 * a claim longer than the API allows. Each is refused before any model loads, with exit code 65
 * (EX_DATAERR), and a batch record is named by file, line and field.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { NotTextError } from '../util/not-text.js';
import { ClaimTextError, EMPTY_CLAIM_MESSAGE, MAX_CLAIM_CHARS } from '../verify/claim-text.js';
import { pairOf } from './check-pairs.js';
import { readClaims } from './command-verify.js';
import { exitCodeOf, messageOf } from './main.js';
import { readSourceArgument } from './source-argument.js';
import { runCli } from './testing/run-cli.js';

/** A PNG's first bytes and some pixels: NUL and control bytes, and a few runs that look like DOIs. */
const BINARY = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d4948445200000010', 'hex'), Buffer.from(' doi:10.1000/182 \u0001\u0002\u0003 doi:10.1000/183 ', 'latin1'), Buffer.alloc(64, 0)]);

const dataError = (pattern: RegExp, type: typeof NotTextError | typeof ClaimTextError) => (e: unknown) => {
  assert.ok(e instanceof type, `${(e as Error).name}: ${(e as Error).message}`);
  assert.match(messageOf(e as Error), pattern);
  assert.equal(exitCodeOf(e as Error), 65);
  return true;
};

describe('bad input on the command line', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vc-bad-input-'));
    await writeFile(join(dir, 'photo.png'), BINARY);
    await writeFile(join(dir, 'photo.txt'), BINARY);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('check --source <binary file> is "unreadable: not text", exit 65', async () => {
    for (const name of ['photo.png', 'photo.txt']) {
      await assert.rejects(runCli(['check', 'The tower is 26 metres tall.', '--source', join(dir, name), '--no-index']), dataError(new RegExp(`${name}: unreadable: not text \\(NUL bytes`), NotTextError));
    }
  });

  it('audit <binary file> is "unreadable: not text", exit 65, whatever the format says', async () => {
    await assert.rejects(runCli(['audit', join(dir, 'photo.txt'), '--no-index', '--quiet']), dataError(/photo\.txt: unreadable: not text/, NotTextError));
    await assert.rejects(runCli(['audit', join(dir, 'photo.png'), '--format', 'text', '--no-index', '--quiet']), dataError(/photo\.png: unreadable: not text/, NotTextError));
  });

  it('check "" and verify "   " are refused, exit 65', async () => {
    await assert.rejects(runCli(['check', '', '--source', join(dir, 'photo.txt'), '--no-index']), dataError(new RegExp(`^${EMPTY_CLAIM_MESSAGE}$`), ClaimTextError));
    await assert.rejects(runCli(['verify', '   ', '--index', join(dir, 'no-index')]), dataError(new RegExp(`^${EMPTY_CLAIM_MESSAGE}$`), ClaimTextError));
  });

  it('a claim over the cap is refused as the API refuses it', async () => {
    const long = 'word '.repeat(MAX_CLAIM_CHARS / 4);
    await assert.rejects(runCli(['verify', long, '--index', join(dir, 'no-index')]), dataError(/the claim has 2499 characters; a claim may have at most 2000/, ClaimTextError));
    await assert.rejects(runCli(['check', long, '--source', join(dir, 'photo.txt'), '--no-index']), dataError(/a claim may have at most 2000/, ClaimTextError));
  });

  it('on stdin: a 50k-character claim is refused; a binary source is not text, a PDF is still read', async () => {
    const withStdin = async <T>(bytes: Buffer, run: () => Promise<T>): Promise<T> => {
      const saved = Object.getOwnPropertyDescriptor(process, 'stdin')!;
      Object.defineProperty(process, 'stdin', { value: Readable.from([bytes]), configurable: true });
      try {
        return await run();
      } finally {
        Object.defineProperty(process, 'stdin', saved);
      }
    };
    await withStdin(Buffer.from('x'.repeat(50_000)), () => assert.rejects(runCli(['verify', '-', '--index', join(dir, 'no-index')]), dataError(/^stdin: the claim has 50000 characters; a claim may have at most 2000/, ClaimTextError)));
    await withStdin(BINARY, () => assert.rejects(runCli(['check', 'It rained.', '--source', '-', '--no-index']), dataError(/^stdin: unreadable: not text/, NotTextError)));
    const pdf = await withStdin(await readFile('data/samples/documents/sources/pdf/seal-survey-2021.pdf'), () => readSourceArgument('-'));
    assert.ok('document' in pdf && pdf.document.sentences.some((s) => /pups/.test(s)));
  });

  it('verify --claims: an empty or too long claim names file, line and field', async () => {
    const file = join(dir, 'claims.jsonl');
    await writeFile(file, [JSON.stringify({ id: 'a', claim: 'Aspirin reduces fever.' }), JSON.stringify({ id: 'b', claim: '  ' })].join('\n') + '\n');
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const c of readClaims(file)) seen.push(c.claim);
      })(),
      dataError(new RegExp(`claims\\.jsonl:2 field "claim": ${EMPTY_CLAIM_MESSAGE}`), ClaimTextError),
    );
    assert.deepEqual(seen, ['Aspirin reduces fever.']);
    await writeFile(file, JSON.stringify({ text: 'x'.repeat(MAX_CLAIM_CHARS + 5) }) + '\n');
    await assert.rejects(
      (async () => {
        for await (const _ of readClaims(file));
      })(),
      dataError(/claims\.jsonl:1 field "text": the claim has 2005 characters/, ClaimTextError),
    );
  });

  it('check --pairs: an empty or too long claim, or a binary source, names file, line and field', async () => {
    const file = join(dir, 'pairs.jsonl');
    await assert.rejects(pairOf({ claim: ' ', text: 'It rained.' }, file, 4), dataError(new RegExp(`pairs\\.jsonl:4 field "claim": ${EMPTY_CLAIM_MESSAGE}`), ClaimTextError));
    await assert.rejects(pairOf({ claim: 'y'.repeat(2001), text: 'It rained.' }, file, 5), dataError(/pairs\.jsonl:5 field "claim": the claim has 2001 characters/, ClaimTextError));
    await assert.rejects(pairOf({ claim: 'It rained.', source: 'photo.txt' }, file, 6), dataError(/pairs\.jsonl:6 field "source": .*photo\.txt: unreadable: not text/, NotTextError));
    await assert.rejects(pairOf({ claim: 'It rained.', text: BINARY.toString('latin1') }, file, 7), dataError(/pairs\.jsonl:7 field "text": unreadable: not text/, NotTextError));
  });
});
