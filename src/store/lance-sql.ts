/** SQL literals for LanceDB filters (`where`, `delete`): one quoting rule for every table of an index. */

/** A string literal: single quotes, inner quotes doubled. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** The inside of an `IN (...)` list of string literals. */
export function inList(ids: string[]): string {
  return ids.map(sqlString).join(',');
}
