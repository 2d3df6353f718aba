/**
 * The one wink-nlp instance of the process, loaded on first use (the model costs ~80 ms to load) with only
 * sentence boundary detection in the pipe: tokenisation is mandatory, POS/NER/negation/sentiment are not
 * needed to split sentences and would cost more time than the splitting itself.
 */
import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';
import type model from 'wink-eng-lite-web-model';

type Wink = ReturnType<typeof winkNLP>;
let nlp: Wink | undefined;

function wink(): Wink {
  if (!nlp) {
    // Required on first use, not imported: the model's data costs start-up time to every process that
    // merely imports this module (the CLI's --help, issue 31). Both packages are CommonJS.
    const require = createRequire(import.meta.url);
    const load = require('wink-nlp') as typeof winkNLP;
    nlp = load(require('wink-eng-lite-web-model') as typeof model, ['sbd']);
  }
  return nlp;
}

/**
 * Offsets in `text` where wink ends a sentence that is followed by another one. wink reports sentences as
 * strings rebuilt from its tokens, so each is located in the original text; callers then slice the
 * original, which keeps the source characters exactly. A string that cannot be located (never seen on
 * SciFact, WiCE or wikitext) just contributes no boundary: its text stays attached to a neighbour.
 */
export function winkBoundaries(text: string): number[] {
  const ends: number[] = [];
  let cursor = 0;
  for (const s of wink().readDoc(text).sentences().out()) {
    const at = text.indexOf(s, cursor);
    if (at < 0) continue;
    cursor = at + s.length;
    ends.push(cursor);
  }
  ends.pop(); // the end of the last sentence is the end of the text, not a boundary
  return ends;
}
