/**
 * compromise (the English part-of-speech and entity tagger), loaded on first use from its one-file CommonJS
 * build. Why: its ESM entry is ~440 modules, and importing it at a module's top cost ~0.85 s of CPU at the start
 * of every process that imports the verifier or the audit (every server test, every `veracite` child a test
 * spawns), most of which never tag a word; the bundled build costs ~0.3 s, once, when text is first tagged.
 * Same package and version: the tags, people, places and topics of 1,416 sample claims and abstract sentences
 * were compared, identical.
 */
import { createRequire } from 'node:module';
import type compromise from 'compromise';

type Nlp = typeof compromise;

let loaded: Nlp | undefined;

/** compromise's `nlp(text)`: the tagged document. */
export function nlp(text: string): ReturnType<Nlp> {
  loaded ??= createRequire(import.meta.url)('compromise') as Nlp;
  return loaded(text);
}
