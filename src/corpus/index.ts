/** The corpus stage's public API: readers, sentence splitting, document preparation, passages. */
export * from './types.js';
export { readCorpus, detectFormat, READERS, type CorpusReader } from './read-corpus.js';
export { readJsonl } from './read-jsonl.js';
export { readScifact } from './read-scifact.js';
export { readFever } from './read-fever.js';
export { readKilt } from './read-kilt.js';
export { readWice } from './read-wice.js';
export { readFolder } from './read-folder.js';
export { feverIdToTitle } from './fever-title.js';
export { splitSentences, splitSentencesWithWink } from './sentences.js';
export { splitParagraphs } from './paragraphs.js';
export { prepareDocument } from './prepare.js';
export { chunkPassages, countWords, type ChunkOptions } from './passages.js';
