/**
 * Unsplit text -> paragraphs. A blank line always ends a paragraph. A single line break is a hard break
 * (headings, list items, short lines) unless it looks like hard-wrapped prose: the next line starts with a
 * lowercase letter, or the line is long and stops mid-sentence. Without this, "Introduction\nThe study..."
 * would become one sentence, and a .txt file wrapped at 72 columns would cut sentences at every line.
 */

const BLANK_LINES = /\n[^\S\n]*\n\s*/;
const LIST_OR_HEADING = /^(?:[-*+#>|]|\d{1,9}[.)]\s)/;
/** A wrapped line of prose is at least this long; headings and list lines are usually shorter. */
const WRAP_MIN = 40;

export function splitParagraphs(text: string): string[] {
  const out: string[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(BLANK_LINES)) {
    if (!block.includes('\n')) {
      if (block.trim()) out.push(block);
      continue;
    }
    let current = '';
    let previous = '';
    for (const raw of block.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (current && !continues(previous, line)) {
        out.push(current);
        current = '';
      }
      current = current ? `${current} ${line}` : line;
      previous = line;
    }
    if (current) out.push(current);
  }
  return out;
}

/** Whether line `next` continues the paragraph whose last line is `previous`. */
function continues(previous: string, next: string): boolean {
  if (LIST_OR_HEADING.test(next)) return false;
  const first = next.charCodeAt(0);
  if (first >= 97 && first <= 122) return true; // a-z
  const last = previous.charCodeAt(previous.length - 1);
  const midSentence = (last >= 97 && last <= 122) || last === 44 /* , */ || last === 59; /* ; */
  return midSentence && previous.length >= WRAP_MIN;
}
