/**
 * One entry point for every corpus format: `readCorpus(path, format | 'auto')`, and `detectFormat`, which
 * picks the format from the path (a folder of text files) or from the fields of the first record.
 */
import { readdir } from 'node:fs/promises';
import { FieldError, parseObject } from './fields.js';
import { FOLDER_FILE, readFolder } from './read-folder.js';
import { readFever } from './read-fever.js';
import { readJsonl } from './read-jsonl.js';
import { readKilt } from './read-kilt.js';
import { readMediawiki } from './read-mediawiki.js';
import { readCirrus } from './read-cirrus.js';
import { MEDIAWIKI_FILE } from './wiki-pages.js';
import { lineFiles, readLines, statOrThrow } from './read-lines.js';
import { readScifact } from './read-scifact.js';
import { readWice } from './read-wice.js';
import type { CorpusFormat, ReadOptions, ReadResult } from './types.js';

export type CorpusReader = (path: string, opts?: ReadOptions) => AsyncIterable<ReadResult>;

export const READERS: Record<CorpusFormat, CorpusReader> = {
  jsonl: readJsonl,
  scifact: readScifact,
  fever: readFever,
  kilt: readKilt,
  wice: readWice,
  folder: readFolder,
  mediawiki: readMediawiki,
  cirrus: readCirrus,
};

export async function* readCorpus(path: string, format: CorpusFormat | 'auto' = 'auto', opts?: ReadOptions): AsyncGenerator<ReadResult> {
  const f = format === 'auto' ? await detectFormat(path) : format;
  const reader = READERS[f];
  if (!reader) throw new Error(`unknown corpus format "${String(f)}" for ${path}`);
  yield* reader(path, opts);
}

/**
 * A folder of .txt/.md/.html is `folder`; a file (or a folder holding only .jsonl files, like FEVER's
 * wiki-pages/) is recognised by the fields of its first non-empty record. Throws, naming the path and the
 * fields seen, when nothing matches.
 */
export async function detectFormat(path: string): Promise<CorpusFormat> {
  const info = await statOrThrow(path);
  if (info.isDirectory() && !(await holdsOnlyJsonl(path))) return 'folder';
  if (!info.isDirectory() && FOLDER_FILE.test(path)) return 'folder';
  // Wikimedia dumps by name: XML exports, and CirrusSearch's bulk files (.json.gz, not .jsonl).
  if (!info.isDirectory() && MEDIAWIKI_FILE.test(path)) return 'mediawiki';
  if (!info.isDirectory() && /cirrussearch.*\.json(\.gz)?$/i.test(path)) return 'cirrus';
  for await (const { file, line, text } of readLines(path)) {
    let fields: string[];
    try {
      fields = Object.keys(parseObject(text));
    } catch (e) {
      const problem = e instanceof FieldError ? e.problem : String(e);
      throw new Error(`cannot detect the format of ${file}: line ${line} is not a JSON object (${problem})`);
    }
    const format = formatOfFields(new Set(fields));
    if (!format) throw new Error(`cannot detect the format of ${file}: unknown record fields ${JSON.stringify(fields)}; pass the format explicitly`);
    return format;
  }
  throw new Error(`cannot detect the format of ${path}: no records`);
}

export function formatOfFields(f: Set<string>): CorpusFormat | undefined {
  if (f.size === 1 && f.has('index')) return 'cirrus';
  if (f.has('doc_id') && f.has('abstract')) return 'scifact';
  if (f.has('doc_id') && f.has('sentences')) return 'wice';
  if (f.has('wikipedia_id') && f.has('text')) return 'kilt';
  if (f.has('id') && f.has('lines')) return 'fever';
  if (f.has('id') && (f.has('text') || f.has('sentences'))) return 'jsonl';
  return undefined;
}

async function holdsOnlyJsonl(dir: string): Promise<boolean> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
  if (entries.some((e) => e.isDirectory() || FOLDER_FILE.test(e.name))) return false;
  return (await lineFiles(dir).catch(() => [])).length > 0;
}
