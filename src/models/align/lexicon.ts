/**
 * Hand word lists beside WordNet. WordNet 3.1 lacks antonyms for the verbs scientific claims turn on
 * (reduce has only "gain"; inhibit, improve, impair, suppress have none), so the direction of change is
 * read from these lists, by lemma (wink-nlp lemmatises "lowered" -> "lower", "higher" -> "high").
 *
 * Two axes: magnitude (increase vs decrease: "raises the risk" / "reduces the risk") and valence (improve
 * vs worsen). They are kept apart because "improves symptoms" and "reduces symptoms" say the same thing.
 */

export type Axis = 'magnitude' | 'valence';

const MAG_UP = [
  'increase', 'increased', 'raise', 'rise', 'elevate', 'elevated', 'elevation', 'enhance', 'enhancement', 'boost', 'augment', 'amplify',
  'heighten', 'upregulate', 'upregulation', 'up-regulate', 'up-regulation', 'accelerate', 'double', 'triple', 'high', 'higher', 'more',
  'great', 'greater', 'large', 'larger', 'gain', 'grow', 'growth', 'exceed', 'stimulate', 'stimulation', 'promote', 'induce', 'excess',
  'increment', 'surge', 'expand', 'expansion', 'activate', 'activation', 'maximize', 'overexpress', 'overexpression',
];
const MAG_DOWN = [
  'decrease', 'decreased', 'reduce', 'reduced', 'reduction', 'lower', 'low', 'less', 'fewer', 'decline', 'drop', 'fall', 'diminish',
  'attenuate', 'attenuation', 'suppress', 'suppression', 'inhibit', 'inhibition', 'downregulate', 'downregulation', 'down-regulate',
  'down-regulation', 'halve', 'shrink', 'lessen', 'cut', 'slow', 'block', 'blockade', 'abolish', 'deplete', 'depletion', 'loss', 'lose',
  'small', 'smaller', 'weaken', 'limit', 'minimize', 'decrement', 'deactivate', 'inactivate', 'inactivation', 'delay',
];
const VAL_UP = ['improve', 'improvement', 'benefit', 'beneficial', 'ameliorate', 'better', 'protect', 'protective', 'restore', 'enhance'];
const VAL_DOWN = ['worsen', 'impair', 'impairment', 'harm', 'harmful', 'deteriorate', 'deterioration', 'aggravate', 'exacerbate', 'damage', 'bad', 'worse'];

function table(): Map<string, { axis: Axis; dir: 1 | -1 }[]> {
  const m = new Map<string, { axis: Axis; dir: 1 | -1 }[]>();
  const put = (words: string[], axis: Axis, dir: 1 | -1) => {
    for (const w of words) m.set(w, [...(m.get(w) ?? []), { axis, dir }]);
  };
  put(MAG_UP, 'magnitude', 1);
  put(MAG_DOWN, 'magnitude', -1);
  put(VAL_UP, 'valence', 1);
  put(VAL_DOWN, 'valence', -1);
  return m;
}

const CHANGE = table();

/** The direction(s) a lemma states, or undefined for words that state none. */
export function changeOf(lemma: string): { axis: Axis; dir: 1 | -1 }[] | undefined {
  return CHANGE.get(lemma);
}

/**
 * Phrasal verbs that state a change only with their particle: "speeds up methylation drift", "scaled back
 * elective surgery" (issue 36: "caloric restriction speeds up methylation drift" read no change, so the
 * source's "delays" / "attenuation" stated nothing against it). Verbs already in the lists above ("slow
 * down", "cut back") need no entry. wink tags "speeds" before "up" as a noun: the pair is read whatever the tag.
 */
// Only verbs whose particle never means motion: "goes up the stairs", "steps up to the stage", "drives down the
// road" (SNLI's pictures) state no change of an amount.
const PHRASAL: Record<string, Record<string, 1 | -1>> = { speed: { up: 1 }, ramp: { up: 1, down: -1 }, scale: { up: 1, down: -1, back: -1 }, tone: { down: -1 } };

/** The magnitude change a verb states with its particle ("speed" + "up"), or undefined. */
export function phrasalChangeOf(lemma: string, particle: string | undefined): { axis: Axis; dir: 1 | -1 }[] | undefined {
  const dir = particle === undefined ? undefined : PHRASAL[lemma]?.[particle.toLowerCase()];
  return dir === undefined ? undefined : [{ axis: 'magnitude', dir }];
}

/** Lemmas of opposite direction on a shared axis: hand-made antonyms where WordNet has none. */
export function oppositeChange(a: string, b: string): boolean {
  const x = CHANGE.get(a);
  const y = CHANGE.get(b);
  if (!x || !y) return false;
  return x.some((p) => y.some((q) => p.axis === q.axis && p.dir !== q.dir)) && !x.some((p) => y.some((q) => p.axis === q.axis && p.dir === q.dir));
}

/** Negation cues besides wink-nlp's own (it scopes "not", "no", "never", "without"); each opens a scope to the next punctuation. */
export const EXTRA_NEGATION_CUES = new Set(['lack', 'absence', 'absent', 'fail', 'neither', 'nor', 'none', 'nobody', 'nothing', 'cannot', 'unable']);
/** Cue words themselves (counted, never aligned as content). */
export const NEGATION_CUES = new Set(['not', "n't", 'no', 'never', 'without', ...EXTRA_NEGATION_CUES]);

export type QuantifierKind = 'universal' | 'none' | 'partial' | 'only';
const QUANTIFIERS: Record<string, QuantifierKind> = {
  all: 'universal', every: 'universal', always: 'universal', each: 'universal', entire: 'universal', any: 'universal',
  no: 'none', none: 'none', never: 'none', nobody: 'none', nothing: 'none',
  some: 'partial', most: 'partial', few: 'partial', several: 'partial', many: 'partial', often: 'partial', sometimes: 'partial',
  rarely: 'partial', majority: 'partial', minority: 'partial', partly: 'partial', partially: 'partial', subset: 'partial', occasionally: 'partial',
  only: 'only', solely: 'only', exclusively: 'only',
};
export function quantifierOf(lemma: string): QuantifierKind | undefined {
  return QUANTIFIERS[lemma];
}

/** Words after which a number names something ("type 2", "phase 3", "T-helper 17") instead of counting it. */
export const IDENTIFIER_PREFIXES = new Set([
  'type', 'phase', 'grade', 'stage', 'class', 'chromosome', 'version', 'generation', 'figure', 'fig', 'table', 'group', 'cohort',
  'trial', 'wave', 'level', 'category', 'exon', 'intron', 'codon', 'residue', 'lysine', 'serine', 'threonine', 'tyrosine', 'arginine',
  'helper', 'cd', 'il', 'th', 'hla', 'tlr', 'apoe', 'brca', 'no', 'number', 'vol', 'volume', 'chapter', 'section', 'article', 'route',
  'world', 'war', 'covid', 'sars',
]);

/** Units a number may carry; "%" and "percent" are one unit. */
const UNITS: Record<string, string> = {
  '%': 'percent', percent: 'percent', percentage: 'percent', 'per cent': 'percent',
  mg: 'mg', g: 'g', kg: 'kg', µg: 'ug', ug: 'ug', mcg: 'ug', ng: 'ng', ml: 'ml', l: 'l', mm: 'mm', cm: 'cm', m: 'm', km: 'km',
  year: 'year', month: 'month', week: 'week', day: 'day', hour: 'hour', minute: 'minute', second: 'second', h: 'hour', min: 'minute',
  fold: 'fold', time: 'times', patient: 'patient', participant: 'participant', subject: 'subject', people: 'people', person: 'people',
  woman: 'people', man: 'people', child: 'people', case: 'case', death: 'death', million: 'million', billion: 'billion', thousand: 'thousand',
  mmhg: 'mmhg', mmol: 'mmol', iu: 'iu', dollar: 'dollar', usd: 'dollar', '$': 'dollar', kcal: 'kcal', bp: 'bp', kb: 'kb', kda: 'kda',
};
export function unitOf(lemma: string): string | undefined {
  return UNITS[lemma];
}
