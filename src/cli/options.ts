/**
 * Shared CLI option parsing: numbers and enums are checked at the edge so a typo gives a clear error
 * naming the option instead of a failure deep inside the pipeline.
 */
import { InvalidArgumentError } from 'commander';

export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive integer (got "${value}")`);
    return n;
  };
}

export function oneOf<T extends string>(name: string, values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`${name} must be one of ${values.join(', ')} (got "${value}")`);
    return value as T;
  };
}

export function unitInterval(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`${name} must be a number in [0, 1] (got "${value}")`);
    return n;
  };
}

export const DEFAULT_INDEX = '.veracite/index';
