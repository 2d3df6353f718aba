/**
 * On-disk cache of training embeddings (tmp/train-cache/), so re-running `veracite train` skips the
 * ~50k sentence embeddings. Keyed by the embedder's id + version and each text's sha256.
 *
 * Reproducibility: a batched embedder can differ in the last float bits depending on which texts share a
 * batch, so the caller passes the SAME full text list every run and missing texts are embedded in sorted
 * order, in fixed chunks; the cache is written only when complete. A cold run and a warm run then see
 * identical vectors.
 *
 * The embedder's id + version name its weights, not its arithmetic: a change to the runtime graph moved
 * ~5% of the USE vectors by ~1e-7, enough to change the trained weights' bytes. So the cache file name
 * also carries a fingerprint of freshly computed vectors for a fixed probe set (the first PROBE texts);
 * an embedder that computes differently gets a new cache instead of stale vectors.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../../models/types.js';

const MAGIC = 'VRCEMB01';
const KEY_BYTES = 16;
const CHUNK = 1024;
const PROBE = 256;

function key(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, KEY_BYTES * 2);
}

export function cacheFile(dir: string, embedder: Embedder, fingerprint: string): string {
  const slug = `${embedder.info.id}-${embedder.info.version}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  return join(dir, `${slug}-${fingerprint}.bin`);
}

/** sha256 (16 hex) of the vectors of the probe texts, embedded in one call. */
async function fingerprint(embedder: Embedder, probe: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const v of await embedder.embed(probe)) hash.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  return hash.digest('hex').slice(0, 16);
}

function readCache(path: string, dim: number): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (!existsSync(path)) return out;
  const buf = readFileSync(path);
  if (buf.subarray(0, 8).toString('latin1') !== MAGIC || buf.readUInt32LE(8) !== dim) return out; // stale format: rebuild
  const count = buf.readUInt32LE(12);
  const rec = KEY_BYTES + dim * 4;
  if (buf.length !== 16 + count * rec) return out;
  for (let i = 0; i < count; i++) {
    const o = 16 + i * rec;
    const v = new Float32Array(dim);
    new Uint8Array(v.buffer).set(buf.subarray(o + KEY_BYTES, o + rec));
    out.set(buf.subarray(o, o + KEY_BYTES).toString('hex'), v);
  }
  return out;
}

function writeCache(path: string, dim: number, entries: Map<string, Float32Array>): void {
  const keys = [...entries.keys()].sort();
  const rec = KEY_BYTES + dim * 4;
  const buf = Buffer.alloc(16 + keys.length * rec);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(dim, 8);
  buf.writeUInt32LE(keys.length, 12);
  keys.forEach((k, i) => {
    const o = 16 + i * rec;
    buf.write(k, o, 'hex');
    const v = entries.get(k)!;
    Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(buf, o + KEY_BYTES);
  });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, buf);
  renameSync(tmp, path); // atomic: a killed run never leaves a truncated cache
}

/** Vectors for every text (deduplicated), from the cache or the embedder. */
export async function embedAllCached(
  embedder: Embedder,
  texts: Iterable<string>,
  cacheDir: string | undefined,
  log: (line: string) => void = () => {},
): Promise<{ vectors: Map<string, Float32Array>; embeddedNow: number }> {
  const dim = embedder.dimension;
  const unique = [...new Set(texts)].sort();
  const path = cacheDir ? cacheFile(cacheDir, embedder, await fingerprint(embedder, unique.slice(0, PROBE))) : undefined;
  const cached = path ? readCache(path, dim) : new Map<string, Float32Array>();
  const missing = unique.filter((t) => !cached.has(key(t)));
  log(`embeddings: ${unique.length} distinct texts, ${unique.length - missing.length} cached${path ? ` (${path})` : ''}`);
  const t0 = performance.now();
  for (let s = 0; s < missing.length; s += CHUNK) {
    const chunk = missing.slice(s, s + CHUNK);
    const vecs = await embedder.embed(chunk);
    chunk.forEach((t, i) => cached.set(key(t), vecs[i]));
    const done = Math.min(s + CHUNK, missing.length);
    const rate = done / ((performance.now() - t0) / 1000);
    log(`  embedded ${done}/${missing.length} (${rate.toFixed(0)} texts/s)`);
  }
  if (path && missing.length) {
    mkdirSync(cacheDir!, { recursive: true });
    writeCache(path, dim, cached);
  }
  return { vectors: new Map(unique.map((t) => [t, cached.get(key(t))!])), embeddedNow: missing.length };
}
