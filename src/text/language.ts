/**
 * Which language a claim, an article or a source is written in. The models and the shipped index read
 * English only: a pair in another language is "could not check (language)", not a guess read as English.
 *
 * The detector is franc (franc-min: trigram profiles of 82 languages, maintained, no native code). Alone it
 * misreads short English claims: 10% of SciFact's sample claims come out as Latin, Romanian or Scots, most
 * of them full of gene names. So a text is read as not English only when
 *   - most of its letters are not Latin script (Cyrillic, Han, Arabic, ...): franc names the language; or
 *   - it is long (LONG_CHARS or more): franc's top language is not English and English scores below
 *     LONG_ENGLISH_BELOW of it; or
 *   - it is short: the same with SHORT_ENGLISH_BELOW, AND under ENGLISH_WORDS_BELOW of its words are English
 *     function words, AND at least FOREIGN_WORDS_FROM are function words of the language franc names (French,
 *     German, Spanish, Italian, Portuguese, Dutch; another top language is left as English).
 * Measured (2026-12-01, franc-min 6.2.0): 9 of 10,548 English claims (SciFact sample 200, WiCE dev 349, FEVER
 * paper_dev 9,999) read as not English, all short FEVER claims of names ("Marco Polo left a chronicle.");
 * 0 of 1,000 SciFact abstracts; 17 of 17 claims in French, German, Spanish, Italian, Portuguese, Dutch, Russian
 * and Chinese read as not English. About 1.3 ms a claim.
 */
import { francAll } from 'franc-min';

/** ISO 639-3 code of the language the models read. */
export const MODEL_LANGUAGE = 'eng';

const LONG_CHARS = 200;
const LONG_ENGLISH_BELOW = 0.9;
const SHORT_ENGLISH_BELOW = 0.85;
const ENGLISH_WORDS_BELOW = 0.08;
const FOREIGN_WORDS_FROM = 0.15;
/** Letters needed before the script decides (a few Greek symbols in an English claim do not). */
const SCRIPT_MIN_LETTERS = 3;

const FUNCTION_WORDS: Record<string, string> = {
  eng: 'the of in is are was were to and with by for that this from as at on be been has have had not than its their which who it an or but into over under between after before during more less does do did can may will would',
  // Words that are English words too ("a", "as", "no", "hat", "door", "war") are left out: they would count both ways.
  fra: 'le la les de des du et est en un une à au aux pour par sur dans qui que ne pas plus son sa ses il elle été sont',
  deu: 'der die das und ist von mit für ein eine den dem zu im nicht auf sich des wird sind',
  spa: 'el la los las de del y es en un una por para con que se su al lo más',
  ita: 'il la lo le di del della e è un una per con che non si gli al nel',
  por: 'o os de do da dos das e é em um uma para com que não na se',
  nld: 'de het een en van op te voor met dat niet zijn bij',
};
const WORD_SETS = Object.fromEntries(Object.entries(FUNCTION_WORDS).map(([k, v]) => [k, new Set(v.split(' '))]));

/** Language names for messages (the detector's top languages here; others by code). */
const NAMES: Record<string, string> = {
  eng: 'English', fra: 'French', deu: 'German', spa: 'Spanish', ita: 'Italian', por: 'Portuguese', nld: 'Dutch', rus: 'Russian', ukr: 'Ukrainian',
  cmn: 'Chinese', jpn: 'Japanese', kor: 'Korean', arb: 'Arabic', hin: 'Hindi', pol: 'Polish', tur: 'Turkish', swe: 'Swedish', ell: 'Greek', und: 'an undetermined language',
};

export interface LanguageReading {
  /** ISO 639-3 code franc gives ('und' when it cannot tell). */
  language: string;
  /** The language in words ("French"). */
  name: string;
  /** Read as English (or too little to tell): the models can read it. */
  english: boolean;
}

export function languageName(code: string): string {
  return NAMES[code] ?? code;
}

/** The language of `text` by the rule above. Empty or letterless text reads as English (nothing to refuse). */
export function readLanguage(text: string): LanguageReading {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < SCRIPT_MIN_LETTERS) return english();
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  const ranked = francAll(sample, { minLength: 1 });
  const top = ranked[0]?.[0] ?? 'und';
  const latin = (sample.match(/\p{Script=Latin}/gu)?.length ?? 0) / Math.max(1, sample.match(/\p{L}/gu)?.length ?? 0);
  if (latin < 0.5) return top === MODEL_LANGUAGE ? english() : foreign(top);
  if (top === MODEL_LANGUAGE || top === 'und') return english();
  const englishScore = ranked.find(([code]) => code === MODEL_LANGUAGE)?.[1] ?? 0;
  if (sample.length >= LONG_CHARS) return englishScore < LONG_ENGLISH_BELOW ? foreign(top) : english();
  const words = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  const share = (code: string) => words.filter((w) => WORD_SETS[code]!.has(w)).length / Math.max(1, words.length);
  const foreignWords = WORD_SETS[top] ? share(top) : 0;
  return englishScore < SHORT_ENGLISH_BELOW && share(MODEL_LANGUAGE) < ENGLISH_WORDS_BELOW && foreignWords >= FOREIGN_WORDS_FROM ? foreign(top) : english();
}

function english(): LanguageReading {
  return { language: MODEL_LANGUAGE, name: NAMES[MODEL_LANGUAGE]!, english: true };
}

function foreign(code: string): LanguageReading {
  return { language: code, name: languageName(code), english: false };
}

/** What a pair's language problem is, in words, or undefined when both read as English. */
export function languageProblem(claim: LanguageReading, source?: LanguageReading): string | undefined {
  const parts = [!claim.english ? `the claim reads as ${claim.name}` : '', source && !source.english ? `the source reads as ${source.name}` : ''].filter(Boolean);
  return parts.length ? `${parts.join(' and ')}; the models and the index read English only` : undefined;
}
