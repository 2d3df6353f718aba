/**
 * FEVER page ids are Wikipedia titles with "_" for spaces and PTB-style bracket tokens ("-LRB-" for "(").
 * The id stays as is (claims cite it); the title is decoded for display and title matching.
 */
const TOKENS: Record<string, string> = {
  '-LRB-': '(',
  '-RRB-': ')',
  '-LSB-': '[',
  '-RSB-': ']',
  '-LCB-': '{',
  '-RCB-': '}',
  '-COLON-': ':',
};
const TOKEN = /-(?:LRB|RRB|LSB|RSB|LCB|RCB|COLON)-/g;

export function feverIdToTitle(id: string): string {
  return id.replace(TOKEN, (t) => TOKENS[t]!).replace(/_/g, ' ');
}
