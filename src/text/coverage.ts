/** Share of the (distinct) query words present in `have`, each weighted by `weight` (default 1; IDF in practice). */
export function wordCoverage(queryWords: readonly string[], have: { has(word: string): boolean }, weight: (word: string) => number = () => 1): number {
  let hit = 0;
  let all = 0;
  for (const t of queryWords) {
    const w = weight(t);
    all += w;
    if (have.has(t)) hit += w;
  }
  return all > 0 ? hit / all : 0;
}
