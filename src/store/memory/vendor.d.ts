// Type declarations for the untyped CommonJS packages the in-memory store uses.
declare module 'wink-porter2-stemmer' {
  /** Porter2 (Snowball English) stem of one lower-case word. */
  export default function stem(word: string): string;
}

declare module 'fold-to-ascii' {
  /** Port of Lucene's ASCIIFoldingFilter. */
  export default class ASCIIFolder {
    /** Folds what has an ASCII equivalent and keeps every other character as is. */
    static foldMaintaining(text: string): string;
  }
}

declare module 'wink-bm25-text-search' {
  interface BM25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number }; ovFieldNames?: string[] }): boolean;
    definePrepTasks(tasks: ((input: unknown) => unknown)[], field?: string): number;
    addDoc(doc: Record<string, string>, id: string): number;
    consolidate(fp?: number): boolean;
    search(text: string, limit?: number): [string, number][];
  }
  export default function bm25(): BM25Engine;
}
