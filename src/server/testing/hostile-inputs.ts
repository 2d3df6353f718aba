/**
 * Hostile documents, generated (never committed): the inputs that stalled the server or crashed the CLI
 * before issue 35, for the hostile-input suite and the benchmarks.
 */
import { createDeflate } from 'node:zlib';

/** One paragraph, no headings, every sentence ending in a ref: `bytes` long (about 190 bytes a sentence). */
export function headinglessWikitext(bytes: number): string {
  const parts: string[] = [];
  let n = 0;
  let len = 0;
  while (len < bytes) {
    const s = `The [[river]] number ${n} flows ${n % 7} km through the {{convert|${n}|km|mi}} valley and was named in ${1800 + (n % 200)}.<ref>{{cite web |url=https://example.org/p${n} |title=Page ${n} |website=Example}}</ref> `;
    parts.push(s);
    len += s.length;
    n++;
  }
  return parts.join('');
}

/** `{{x|` nested `depth` deep after one cited sentence (10,000 deep: 50 kB). */
export function deeplyNestedWikitext(depth: number): string {
  return `An ordinary sentence.<ref>{{cite web |url=https://example.org/a |title=A}}</ref> ${'{{x|'.repeat(depth)}end`;
}

/**
 * A small, well-formed PDF whose one content stream inflates to `inflatedMb` MB of spaces (a decompression
 * bomb: 400 MB packs into ~400 kB).
 */
export async function pdfBomb(inflatedMb: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < inflatedMb; i++) {
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  const stream = Buffer.concat(out);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  objects.forEach((o, i) => {
    offsets.push(length);
    add(Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`));
  });
  offsets.push(length);
  add(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`));
  add(stream);
  add(Buffer.from('\nendstream\nendobj\n'));
  const xref = length;
  add(Buffer.from(`xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(parts);
}
