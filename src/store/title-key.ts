/**
 * Title keys for entity lookup (ColumbiaNLP-style document retrieval): "Soul Food (film)",
 * "Soul_Food_-LRB-film-RRB-" and "soul food" all key to "soul food", so a mention in a claim finds every
 * page with that base title, disambiguated ones included.
 */
const FEVER_BRACKETS: Record<string, string> = { '-LRB-': '(', '-RRB-': ')', '-LSB-': '[', '-RSB-': ']', '-LCB-': '{', '-RCB-': '}', '-COLON-': ':' };

export function decodeFeverTitle(title: string): string {
  return title.replace(/-(LRB|RRB|LSB|RSB|LCB|RCB|COLON)-/g, (m) => FEVER_BRACKETS[m] ?? m).replace(/_/g, ' ');
}

/** Base title without a trailing disambiguation "(...)". */
export function baseTitle(title: string): string {
  return decodeFeverTitle(title).replace(/\s*\([^()]*\)\s*$/, '').trim();
}

export function titleKey(title: string): string {
  return baseTitle(title)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
