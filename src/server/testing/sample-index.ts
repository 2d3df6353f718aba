/**
 * A small index for the server's tests, the e2e tests and the load benchmark, built from the shipped
 * SciFact sample. The abstracts are given URLs (`https://scifact.example/<doc_id>`) so an article can cite
 * them: a citation's URL then finds its source in the index, as a Wikipedia citation finds the indexed
 * copy of its page. `auditArticle()` writes such an article: claims from the SciFact dev sample, each
 * citing either its gold abstract (verifiable), another abstract (failed verification, with the gold one
 * to be found as a suggestion) or a URL that is not indexed (source missing).
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../util/package-root.js';
import { ingestSource } from '../../store/ingest.js';
import { LanceStore } from '../../store/lancedb-store.js';

export const SCIFACT_SAMPLE = join(packageRoot(), 'data', 'samples', 'scifact');

export function sampleUrl(docId: number | string): string {
  return `https://scifact.example/${docId}`;
}

interface SciFactDoc {
  doc_id: number;
  title: string;
  abstract: string[];
}

interface SciFactClaim {
  id: number;
  claim: string;
  evidence: Record<string, { sentences: number[]; label: string }[]>;
  cited_doc_ids: number[];
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** Builds the index in `dir` (created). Returns the open store's directory; the caller opens it again. */
export async function buildSampleIndex(dir: string, opts: { limit?: number } = {}): Promise<{ dir: string; documents: number }> {
  await mkdir(dir, { recursive: true });
  const docs = readJsonl<SciFactDoc>(join(SCIFACT_SAMPLE, 'corpus.jsonl')).slice(0, opts.limit);
  const jsonl = join(dir, 'sample-corpus.jsonl');
  await writeFile(jsonl, docs.map((d) => JSON.stringify({ id: String(d.doc_id), title: d.title, sentences: d.abstract, url: sampleUrl(d.doc_id) })).join('\n') + '\n');
  const store = await LanceStore.open(join(dir, 'index'));
  try {
    const s = await ingestSource(store, jsonl, { format: 'jsonl', batchSize: 500 });
    return { dir: join(dir, 'index'), documents: s.documents };
  } finally {
    await store.close();
  }
}

/** SciFact dev claims whose evidence supports them, with their gold abstract. */
export function supportedClaims(): { claim: string; docId: number }[] {
  const out: { claim: string; docId: number }[] = [];
  for (const c of readJsonl<SciFactClaim>(join(SCIFACT_SAMPLE, 'claims_dev.jsonl'))) {
    const entry = Object.entries(c.evidence).find(([, sets]) => sets.some((s) => s.label === 'SUPPORT'));
    if (entry) out.push({ claim: c.claim, docId: Number(entry[0]) });
  }
  return out;
}

/** Every SciFact dev claim of the sample (for load tests). */
export function sampleClaims(): string[] {
  return readJsonl<SciFactClaim>(join(SCIFACT_SAMPLE, 'claims_dev.jsonl')).map((c) => c.claim);
}

/**
 * Wikitext with `n` cited claims: most cite their gold abstract, every third cites the previous claim's
 * abstract instead (a wrong source), and the last cites a page that is not in the index.
 */
export function auditArticle(n = 6): { title: string; wikitext: string } {
  const claims = supportedClaims().slice(0, n);
  const lines = claims.map((c, i) => {
    const wrong = i % 3 === 2 && i > 0;
    const missing = i === claims.length - 1;
    const url = missing ? 'https://not-indexed.example/page' : sampleUrl(wrong ? claims[i - 1]!.docId : c.docId);
    const sentence = c.claim.replace(/\.?\s*$/, '.');
    return `${sentence}<ref>{{cite journal |title=Study ${i + 1} |url=${url} |journal=Sample}}</ref>`;
  });
  const wikitext = `'''Sample findings''' collects claims from the SciFact sample.\n\n== Findings ==\n${lines.join(' ')}\n\n== References ==\n{{reflist}}\n`;
  return { title: 'Sample findings', wikitext };
}
