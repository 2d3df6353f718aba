/**
 * The one wink-nlp instance of the process, loaded on first use (the model costs ~80 ms to load) with only
 * sentence boundary detection in the pipe: tokenisation is mandatory, POS/NER/negation/sentiment are not
 * needed to split sentences and would cost more time than the splitting itself.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

type Wink = ReturnType<typeof winkNLP>;
let nlp: Wink | undefined;

function wink(): Wink {
  nlp ??= winkNLP(model, ['sbd']);
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
