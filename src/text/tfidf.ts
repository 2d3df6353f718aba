/**
 * TF-IDF cosine between a claim and a set of sentences, with IDF computed over that set (ColumbiaNLP's
 * sentence pre-selection). Cheap enough to rank every sentence of every candidate document, so the
 * learned scorer only sees the most promising ones.
 */
const STOP = new Set('a an the of and or to in on at by for with from as is are was were be been being it its this that these those which who whom whose what when where why how not no do does did has have had he she they we you i his her their our your than then there here so such into about over under after before between during through up down out off also can could may might must shall should will would'.split(' '));

export function contentTokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP.has(t) && (t.length > 1 || /\d/.test(t)));
}

export function tfidfRank(claim: string, sentences: string[]): number[] {
  const docs = sentences.map(contentTokens);
  const df = new Map<string, number>();
  for (const toks of docs) for (const t of new Set(toks)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.length + 1;
  const idf = (t: string) => Math.log((n + 1) / ((df.get(t) ?? 0) + 1)) + 1;
  const vec = (toks: string[]) => {
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    let norm = 0;
    for (const [t, c] of tf) {
      const w = (1 + Math.log(c)) * idf(t);
      tf.set(t, w);
      norm += w * w;
    }
    return { tf, norm: Math.sqrt(norm) || 1 };
  };
  const q = vec(contentTokens(claim));
  return docs.map((toks) => {
    const d = vec(toks);
    let dot = 0;
    for (const [t, w] of q.tf) dot += w * (d.tf.get(t) ?? 0);
    return dot / (q.norm * d.norm);
  });
}
