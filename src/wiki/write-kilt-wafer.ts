/**
 * Write citations as KILT / WAFER JSONL (SIDE's format, see wafer-record.ts), one record per line, so
 * SIDE's retrieval and verification tools can score them.
 *
 * A citation without a URL (a book, an {{sfn}}) cannot be a WAFER record: SIDE rejects records whose
 * provenance has no url. Those are counted in `skipped`, not written.
 */
import { writeFile } from 'node:fs/promises';
import { toWaferRecord, type WaferCitation } from './wafer-record.js';

export interface WriteWaferResult {
  written: number;
  /** Ids of the citations left out for want of a URL. */
  skipped: string[];
}

export async function writeKiltWafer(path: string, items: Iterable<WaferCitation>): Promise<WriteWaferResult> {
  const lines: string[] = [];
  const skipped: string[] = [];
  for (const item of items) {
    const record = toWaferRecord(item);
    if (record) lines.push(JSON.stringify(record));
    else skipped.push(item.id);
  }
  await writeFile(path, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  return { written: lines.length, skipped };
}
