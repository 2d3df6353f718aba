/** The input formats `veracite audit` reads, apart from the readers so that the command line's help lists them without loading them. */
import type { DocumentKind } from '../audit/types.js';

export type InputFormat = 'auto' | DocumentKind;
export const INPUT_FORMATS: readonly InputFormat[] = ['auto', 'wikipedia-wikitext', 'wikipedia-html', 'kilt', 'markdown', 'html', 'text', 'pdf'];
