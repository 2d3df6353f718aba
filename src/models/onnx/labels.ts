import { ModelLoadError } from './errors.js';

/**
 * Reading label semantics from config.json's id2label. Exports differ in label order (MNLI models use
 * contradiction/entailment/neutral, neutral/entailment/contradiction, ...), so the order is never assumed.
 * Names are compared after lower-casing and dropping non-alphanumerics ("ENTAILMENT", "Entailment",
 * "entail-ment" are the same); matching is by whole name, so "not_entailment" is never read as entailment.
 */
export type Id2Label = Map<number, string>;

const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const ENTAILMENT = ['entailment', 'entailed', 'entails', 'entail'];
const NEUTRAL = ['neutral'];
const CONTRADICTION = ['contradiction', 'contradicts', 'contradict', 'contradictory'];

/**
 * Positive-class names for a pair scorer, in priority order: the first name present wins. LABEL_1 / "1"
 * comes last: it is the Hugging Face default name, and binary relevance heads put "relevant" at index 1.
 */
export const POSITIVE_LABELS = ['relevant', 'entailment', 'entailed', 'entails', 'positive', 'yes', 'true', 'match', 'label1', '1'];

export function readId2Label(config: Record<string, unknown>, where: string): Id2Label {
  const raw = config.id2label;
  const map: Id2Label = new Map();
  if (raw === undefined || raw === null) return map;
  if (typeof raw !== 'object') {
    throw new ModelLoadError('config-invalid', `id2label in ${where} is not an object; fix config.json`, { path: where });
  }
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const idx = Number(k);
    if (!Number.isInteger(idx) || idx < 0 || typeof v !== 'string') {
      throw new ModelLoadError('config-invalid', `id2label in ${where} has an invalid entry ${JSON.stringify(k)}: ${JSON.stringify(v)}`, {
        path: where,
      });
    }
    map.set(idx, v);
  }
  return map;
}

function describe(id2label: Id2Label): string {
  return id2label.size === 0 ? '(none)' : JSON.stringify(Object.fromEntries(id2label));
}

function findAll(id2label: Id2Label, names: string[]): number[] {
  return [...id2label].filter(([, label]) => names.includes(norm(label))).map(([i]) => i);
}

export interface EntailmentIndices {
  entailment: number;
  neutral: number;
  contradiction: number;
}

export function entailmentIndices(id2label: Id2Label, where: string, override?: EntailmentIndices): EntailmentIndices {
  if (override !== undefined) {
    for (const [role, idx] of Object.entries(override)) {
      if (!id2label.has(idx) && id2label.size > 0) {
        const msg = `labelIndices.${role}=${idx} is not a label index of ${where} (id2label ${describe(id2label)})`;
        throw new ModelLoadError('labels-unmapped', msg, { path: where });
      }
    }
    return override;
  }
  const pick = (role: keyof EntailmentIndices, names: string[]): number => {
    const found = findAll(id2label, names);
    if (found.length !== 1) {
      throw new ModelLoadError(
        'labels-unmapped',
        `cannot map the ${role} label of ${where}: id2label is ${describe(id2label)}; ` +
          `expected exactly one label named like ${names.join('/')}. ` +
          'Fix id2label in config.json, or pass labelIndices: { entailment, neutral, contradiction }.',
        { path: where },
      );
    }
    return found[0];
  };
  return {
    entailment: pick('entailment', ENTAILMENT),
    neutral: pick('neutral', NEUTRAL),
    contradiction: pick('contradiction', CONTRADICTION),
  };
}

/** Index of the "relevant / supported" class of a multi-logit pair classifier. */
export function positiveIndex(id2label: Id2Label, where: string, override?: string | number): number {
  if (typeof override === 'number') return override;
  const wanted = override === undefined ? POSITIVE_LABELS : [norm(override)];
  for (const name of wanted) {
    const found = findAll(id2label, [name]);
    if (found.length === 1) return found[0];
  }
  throw new ModelLoadError(
    'labels-unmapped',
    `cannot find the positive label of ${where}: id2label is ${describe(id2label)}; ` +
      `looked for ${wanted.join(', ')}. Pass positiveLabel (a name or an index).`,
    { path: where },
  );
}
