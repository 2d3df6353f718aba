/**
 * Read a KILT / WAFER JSONL file (SIDE's format, see wafer-record.ts) into citation records: claim,
 * context, section path, article title, cited URL. Plain or gzipped (.jsonl.gz), via the corpus line
 * reader. A malformed line stops the read with a RecordError naming file, line and field: a scoring input
 * with silently dropped records would give wrong figures.
 */
import { FieldError, parseObject } from '../corpus/fields.js';
import { readLines } from '../corpus/read-lines.js';
import { RecordError } from '../corpus/types.js';
import { fromWaferRecord, type WaferCitation } from './wafer-record.js';

export type WaferItem = WaferCitation & {
  /** The text before [CIT] (the claim when the record holds no more of the sentence). */
  claimPrefix: string;
  /** The record's `input` as written ("... claim [CIT]"). */
  input: string;
};

export async function readKiltWafer(path: string): Promise<WaferItem[]> {
  const items: WaferItem[] = [];
  for await (const { file, line, text } of readLines(path)) {
    try {
      items.push(fromWaferRecord(parseObject(text)));
    } catch (e) {
      if (e instanceof FieldError) throw new RecordError(file, line, e.field, e.problem);
      throw e;
    }
  }
  return items;
}
