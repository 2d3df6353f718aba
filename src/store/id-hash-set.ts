/**
 * A set of string ids kept as 64-bit hashes in two typed arrays (open addressing): 8 bytes an id where a
 * JS Set<string> costs ~90 (the string plus the table entry). The writer remembers every id written in
 * its session to know when an upsert must delete first; at FEVER size (5.4M pages) a Set<string> alone
 * held ~0.5 GB. A false positive (two ids with the same 64-bit hash, odds ~n²/2^65) only makes one
 * batch delete before adding, which is what an upsert does anyway: correct, just not the fast path.
 */
export class IdHashSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private used = 0;

  constructor(capacity = 1 << 16) {
    const size = 1 << Math.ceil(Math.log2(Math.max(16, capacity * 2)));
    this.hi = new Uint32Array(size);
    this.lo = new Uint32Array(size);
  }

  get size(): number {
    return this.used;
  }

  add(id: string): void {
    if ((this.used + 1) * 2 > this.hi.length) this.grow();
    if (this.insert(hashA(id), hashB(id))) this.used++;
  }

  has(id: string): boolean {
    const a = hashA(id);
    const b = hashB(id);
    const mask = this.hi.length - 1;
    for (let i = b & mask; ; i = (i + 1) & mask) {
      const h = this.hi[i]!;
      const l = this.lo[i]!;
      if (h === 0 && l === 0) return false;
      if (h === a && l === b) return true;
    }
  }

  /** Bytes held by the tables (for memory accounting in benchmarks). */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength;
  }

  private insert(a: number, b: number): boolean {
    // (0, 0) marks an empty slot; an id hashing to it is stored as (0, 1) (a harmless extra collision).
    if (a === 0 && b === 0) b = 1;
    const mask = this.hi.length - 1;
    for (let i = b & mask; ; i = (i + 1) & mask) {
      const h = this.hi[i]!;
      const l = this.lo[i]!;
      if (h === 0 && l === 0) {
        this.hi[i] = a;
        this.lo[i] = b;
        return true;
      }
      if (h === a && l === b) return false;
    }
  }

  private grow(): void {
    const { hi, lo } = this;
    this.hi = new Uint32Array(hi.length * 2);
    this.lo = new Uint32Array(lo.length * 2);
    for (let i = 0; i < hi.length; i++) if (hi[i] !== 0 || lo[i] !== 0) this.insert(hi[i]!, lo[i]!);
  }
}

/** FNV-1a over UTF-16 code units, 32 bits. */
function hashA(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A second, independent 32-bit hash (murmur3-style mixing) so the pair acts as one 64-bit hash. */
function hashB(s: string): number {
  let h = 0x9747b28c ^ s.length;
  for (let i = 0; i < s.length; i++) {
    let k = Math.imul(s.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
