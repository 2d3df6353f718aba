/**
 * The `aliases` table of a LanceDB index (issue 38): a wiki's redirects (title -> target document) and
 * disambiguation pages, recorded from dumps instead of indexed as articles. Title lookups
 * (LanceStore.findTitles, and so FEVER-style document retrieval and the evidence hops) resolve a redirect
 * title to the article it points to: a claim about "Goryeo celadon" finds "Goryeo ware".
 *
 * Rows are keyed by the page's id; writes are merge inserts (one commit each), so a resumed ingest that
 * reports pages again rewrites the same rows. English Wikipedia has ~10M redirects: lookups go through
 * B-tree indices on `title_key`, `id` and `target`, built with the other lookup indices.
 */
import * as lancedb from '@lancedb/lancedb';
import type { TitleAlias } from './types.js';
import { inList } from './lance-sql.js';
import { titleKey } from './title-key.js';

export const ALIASES = 'aliases';
export const ALIAS_LOOKUP_COLUMNS = ['id', 'title_key', 'target'] as const;

/** Rows as stored: every column a string ('' for none), so the schema never depends on the first batch. */
function toRows(aliases: TitleAlias[]): Record<string, string>[] {
  const byId = new Map<string, TitleAlias>();
  for (const a of aliases) byId.set(a.id, a); // the last report of a page wins, as in a document batch
  return [...byId.values()].map((a) => ({ id: a.id, title: a.title, title_key: titleKey(a.title), kind: a.kind, target: a.target ?? '', wiki: a.wiki ?? '' }));
}

function fromRow(r: Record<string, unknown>): TitleAlias {
  const a: TitleAlias = { id: String(r['id']), title: String(r['title']), kind: r['kind'] === 'disambiguation' ? 'disambiguation' : 'redirect' };
  if (r['target']) a.target = String(r['target']);
  if (r['wiki']) a.wiki = String(r['wiki']);
  return a;
}

/**
 * Writes aliases; creates the table on the first write. `merge`: replace rows of the same ids (an update,
 * a resumed or repeated ingest); without it the rows are appended, which a first ingest can do (the store
 * knows no row of these ids exists) and which, unlike a merge, does not scan the table.
 */
export async function putAliases(db: lancedb.Connection, table: lancedb.Table | undefined, aliases: TitleAlias[], merge: boolean): Promise<lancedb.Table | undefined> {
  const rows = toRows(aliases);
  if (rows.length === 0) return table;
  if (!table) return db.createTable(ALIASES, rows, { mode: 'create', existOk: false });
  if (merge) await table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
  else await table.add(rows);
  return table;
}

/** Removes the aliases of these page ids (pages deleted, or now articles); returns how many there were. */
export function deleteAliases(table: lancedb.Table, ids: string[]): Promise<number> {
  return deleteIn(table, 'id', ids);
}

/** Removes the redirects to these document ids; returns how many there were. */
export function deleteRedirectsTo(table: lancedb.Table, targets: string[]): Promise<number> {
  return deleteIn(table, 'target', targets, "kind = 'redirect' AND ");
}

/** Deletes the rows whose `column` is one of `values` (500 to a filter), counting them first: a delete says nothing of how many it removed. */
async function deleteIn(table: lancedb.Table, column: string, values: string[], also = ''): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < values.length; i += 500) {
    const where = `${also}${column} IN (${inList([...new Set(values.slice(i, i + 500))])})`;
    const present = await table.countRows(where);
    if (present === 0) continue;
    await table.delete(where);
    deleted += present;
  }
  return deleted;
}

/** Redirects whose title has one of these keys: [redirect key, target document id]. */
export async function redirectTargets(table: lancedb.Table, keys: string[]): Promise<{ key: string; target: string }[]> {
  if (keys.length === 0) return [];
  const rows = await table.query().where(`title_key IN (${inList([...new Set(keys)])}) AND kind = 'redirect'`).select(['title_key', 'target']).toArray();
  return rows.filter((r: Record<string, string>) => r['target']).map((r: Record<string, string>) => ({ key: r['title_key']!, target: r['target']! }));
}

/** Every alias, in batches. */
export async function* listAliases(table: lancedb.Table): AsyncIterable<TitleAlias[]> {
  for await (const batch of table.query().select(['id', 'title', 'kind', 'target', 'wiki'])) {
    const cols = ['id', 'title', 'kind', 'target', 'wiki'].map((c) => [c, batch.getChild(c)] as const);
    const out: TitleAlias[] = [];
    for (let i = 0; i < batch.numRows; i++) out.push(fromRow(Object.fromEntries(cols.map(([c, v]) => [c, v?.get(i)]))));
    yield out;
  }
}

export async function buildAliasIndices(table: lancedb.Table): Promise<void> {
  for (const column of ALIAS_LOOKUP_COLUMNS) await table.createIndex(column, { config: lancedb.Index.btree(), replace: true });
}
