/** Small helpers shared by the USE backends, bench and tests. */

/** In place; returns its argument. A zero vector stays zero rather than becoming NaN. */
export function l2Normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

/** Runs tasks one after another (both runtimes already use every core for a single batch). */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * float32 -> IEEE half (round to nearest even). The committed reference vectors are stored as halves:
 * half the size, and the rounding error (< 5e-4 relative) moves cosines by < 1e-6.
 */
export function toFloat16(values: Float32Array): Uint16Array {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    f[0] = values[i];
    const x = u[0];
    const sign = (x >>> 16) & 0x8000;
    const exp = ((x >>> 23) & 0xff) - 127 + 15;
    let mant = x & 0x7fffff;
    if (exp >= 31) out[i] = sign | 0x7c00; // overflow / inf (NaN never occurs in unit vectors)
    else if (exp <= 0) {
      if (exp < -10) out[i] = sign;
      else {
        mant |= 0x800000;
        const shift = 14 - exp;
        const half = mant >>> shift;
        const rem = mant & ((1 << shift) - 1);
        const mid = 1 << (shift - 1);
        out[i] = sign | (half + (rem > mid || (rem === mid && half & 1) ? 1 : 0));
      }
    } else {
      const rem = mant & 0x1fff;
      let h = sign | (exp << 10) | (mant >>> 13);
      if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++; // carry into the exponent is correct rounding
      out[i] = h;
    }
  }
  return out;
}

export function fromFloat16(halves: Uint16Array): Float32Array {
  const out = new Float32Array(halves.length);
  for (let i = 0; i < halves.length; i++) {
    const h = halves[i];
    const exp = (h >>> 10) & 0x1f;
    const mant = h & 0x3ff;
    const mag = exp === 0 ? mant * 2 ** -24 : exp === 31 ? Infinity : (1 + mant / 1024) * 2 ** (exp - 15);
    out[i] = h & 0x8000 ? -mag : mag;
  }
  return out;
}
