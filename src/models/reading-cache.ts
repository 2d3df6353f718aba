/**
 * A model's readings of (premise, hypothesis) or (query, passage) pairs, kept on disk as they are made, so
 * that a long job over one model (`veracite models calibrate`: thousands of pairs, an hour for a large
 * model on CPU) resumes where it stopped: a rerun answers every pair read before from the file and sends
 * only the others to the model. One JSON line per pair, appended after each batch (a crash loses at most
 * the batch in flight); the file is tied to the model's weights hash (`version`): another model's
 * readings are never reused. Counts what it served and what it computed, and the time computing took
 * (seconds per pair: what an estimate of the rest multiplies).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EntailmentModel, EntailmentPair, EntailmentProbs, PairScorer, ScoredPair } from './types.js';

interface Header {
  format: 'veracite-readings';
  model: string;
  version: string;
}

type Reading = [number, number, number] | number;

export class ReadingCache {
  /** Pairs answered from the file, and read by the model in this run. */
  hits = 0;
  computed = 0;
  /** Seconds the model spent on the pairs it read in this run. */
  seconds = 0;
  private readonly pending: string[] = [];

  private constructor(
    readonly path: string,
    private readonly readings: Map<string, Reading>,
  ) {}

  /** Opens (or starts) the cache of `model`; a file of another model or version is started afresh. */
  static async open(path: string, model: { id: string; version: string }): Promise<ReadingCache> {
    const readings = new Map<string, Reading>();
    const header: Header = { format: 'veracite-readings', model: model.id, version: model.version };
    let fresh = true;
    if (existsSync(path)) {
      const lines = (await readFile(path, 'utf8')).split('\n');
      let first: Header | undefined;
      try {
        first = JSON.parse(lines[0] ?? '') as Header;
      } catch {
        first = undefined;
      }
      if (first?.format === 'veracite-readings' && first.model === model.id && first.version === model.version) {
        fresh = false;
        for (const line of lines.slice(1)) {
          if (!line) continue;
          try {
            const [k, v] = JSON.parse(line) as [string, Reading];
            readings.set(k, v);
          } catch {
            // A line cut short by a crash: that pair is read again.
          }
        }
      }
    }
    if (fresh) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, JSON.stringify(header) + '\n');
    }
    return new ReadingCache(path, readings);
  }

  /** Pairs on file. */
  get size(): number {
    return this.readings.size;
  }

  /** Seconds per pair the model took in this run (undefined before it read any). */
  secondsPerPair(): number | undefined {
    return this.computed ? this.seconds / this.computed : undefined;
  }

  has(a: string, b: string): boolean {
    return this.readings.has(key(a, b));
  }

  /** `keep(i)`: whether pair i's new reading is one to keep (a reading the model says needs review is not). */
  private async through<T extends Reading>(pairs: [string, string][], compute: (missing: number[]) => Promise<T[]>, keep: (i: number) => boolean = () => true): Promise<T[]> {
    const keys = pairs.map(([a, b]) => key(a, b));
    const out = keys.map((k) => this.readings.get(k) as T | undefined);
    const missing = keys.flatMap((k, i) => (this.readings.has(k) ? [] : [i]));
    this.hits += pairs.length - missing.length;
    if (missing.length) {
      const started = performance.now();
      const got = await compute(missing);
      this.seconds += (performance.now() - started) / 1000;
      this.computed += missing.length;
      missing.forEach((i, j) => {
        out[i] = got[j]!;
        if (!keep(i)) return;
        this.readings.set(keys[i]!, got[j]!);
        this.pending.push(JSON.stringify([keys[i], got[j]]));
      });
      if (this.pending.length) await appendFile(this.path, this.pending.splice(0).join('\n') + '\n');
    }
    return out as T[];
  }

  entailment(model: EntailmentModel): EntailmentModel {
    return {
      info: model.info,
      predict: async (pairs: EntailmentPair[], signal?: AbortSignal): Promise<EntailmentProbs[]> => {
        // A reading the model says cannot be trusted (an LLM judge's unreadable reply) is used in this run but
        // never kept: a rerun against a fixed server reads the pair again instead of resuming the failure.
        const got = await this.through(
          pairs.map((p) => [p.premise, p.hypothesis]),
          async (missing) => (await model.predict(missing.map((i) => pairs[i]!), signal)).map((p) => [p.entailment, p.neutral, p.contradiction] as [number, number, number]),
          (i) => !model.reviewOf?.(pairs[i]!),
        );
        return got.map(([entailment, neutral, contradiction]) => ({ entailment, neutral, contradiction }));
      },
      ...(model.reviewOf ? { reviewOf: (pair: EntailmentPair) => model.reviewOf!(pair) } : {}),
      ...(model.dispose ? { dispose: () => model.dispose!() } : {}),
    };
  }

  scorer(model: PairScorer): PairScorer {
    return {
      info: model.info,
      score: (pairs: ScoredPair[], signal?: AbortSignal) =>
        this.through(
          pairs.map((p) => [p.query, p.passage]),
          async (missing) => model.score(missing.map((i) => pairs[i]!), signal),
        ),
      ...(model.dispose ? { dispose: () => model.dispose!() } : {}),
    };
  }
}

function key(a: string, b: string): string {
  return createHash('sha1').update(a).update('\u0000').update(b).digest('base64url').slice(0, 22);
}
