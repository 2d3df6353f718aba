/**
 * The loop shared by the JSONL-based readers: stream lines, parse each into an object, map it to a
 * RawDocument. A bad line becomes `{ok: false, error}` and reading goes on; the caller decides whether to
 * skip it or stop.
 */
import { FieldError, parseObject, type JsonObject } from './fields.js';
import { readLines } from './read-lines.js';
import { RecordError, type RawDocument, type ReadOptions, type ReadResult } from './types.js';

export type RecordMapper = (record: JsonObject) => RawDocument;

export async function* readJsonRecords(path: string, opts: ReadOptions | undefined, toDocument: RecordMapper): AsyncGenerator<ReadResult> {
  for await (const { file, line, text, invalidUtf8 } of readLines(path, opts)) {
    if (invalidUtf8) {
      yield { ok: false, error: new RecordError(file, line, undefined, `invalid UTF-8 at column ${invalidUtf8.column} (the file must be UTF-8: convert it, e.g. iconv -f latin1 -t utf-8)`) };
      continue;
    }
    let result: ReadResult;
    try {
      result = { ok: true, doc: toDocument(parseObject(text)), loc: { file, line } };
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      result = { ok: false, error: new RecordError(file, line, e.field, e.problem) };
    }
    yield result;
  }
}
