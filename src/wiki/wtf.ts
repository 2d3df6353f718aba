/**
 * wtf_wikipedia (the wikitext parser), loaded on first use from its one-file CommonJS build. Why: its ESM entry
 * is ~120 modules, and importing it at a module's top cost ~0.35 s of CPU at the start of every process that
 * imports the document readers or the server (47 of the test files), most of which never read wikitext; the
 * bundled build costs ~0.2 s, once, when wikitext is first parsed. Same package and version: the sample and
 * fixture wikitexts give identical json() and text() through both.
 */
import { createRequire } from 'node:module';
import type wtfType from 'wtf_wikipedia';

type Wtf = typeof wtfType;

let loaded: Wtf | undefined;

/** wtf_wikipedia's `wtf(wikitext)`: the parsed document. */
export function wtf(wikitext: string): ReturnType<Wtf> {
  loaded ??= createRequire(import.meta.url)('wtf_wikipedia') as Wtf;
  return loaded(wikitext);
}
