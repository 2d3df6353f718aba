/**
 * A size budget for each `<page>` of a MediaWiki export, applied to the XML text before the SAX parser
 * sees it (issue 45). The parser holds a text node whole until its closing tag, so one 500 MB page
 * aborted V8 (heap out of memory) and a 2.4 KB bz2 that inflates to a 2 GiB page failed the whole read
 * ("Invalid string length"). Here a page's text is held only up to the budget: a page that stays within
 * it is passed on whole at its `</page>`; one that goes over is dropped as it streams by (never held, so
 * decompression costs time, not memory) and replaced by a stub `<page>` carrying its title, namespace, id
 * and size (`<oversize>`), which the reader turns into a bad record naming the page: skipped and counted
 * with `--on-error skip`, the ingest's stop with `--on-error stop`.
 *
 * Lines: the stub has none of the dropped page's newlines, so `lineOffset` counts them; the parser's line
 * plus the offset at the time is the line in the file. `<page>` and `</page>` cannot occur inside XML
 * text (a `<` there is escaped), so finding them in the raw text is exact.
 */

/** Default: MediaWiki itself refuses revisions over 2 MB ($wgMaxArticleSize); 64 MB leaves room for exports of other wikis. */
export const DEFAULT_MAX_PAGE_BYTES = 64 * 1024 * 1024;

/** The CLI flag that sets the budget, for messages. */
export const PAGE_BUDGET_FLAG = '--max-page-mb';

const OPEN = '<page>';
const CLOSE = '</page>';
/** How much of an oversize page is kept to find its title, namespace and id. */
const HEAD = 16 * 1024;

export class PageBudget {
  /** Newlines of dropped pages so far (see the header). */
  lineOffset = 0;
  /** Pages dropped as over the budget. */
  dropped = 0;
  private inPage = false;
  private parts: string[] = [];
  private held = 0;
  private over = false;
  private head = '';
  private size = 0;
  private newlines = 0;
  /** The end of the last chunk when it may be the start of a tag cut in two. */
  private carry = '';

  constructor(
    /** Chars of one page's XML (UTF-16 units; ASCII markup makes this about its bytes), at most. */
    readonly maxChars: number,
    /** Receives the text to parse, in order. */
    private readonly out: (text: string) => void,
  ) {}

  push(chunk: string): void {
    const s = this.carry + chunk;
    this.carry = '';
    let at = 0;
    while (at < s.length) {
      if (!this.inPage) {
        const k = s.indexOf(OPEN, at);
        if (k < 0) {
          const keep = partialTail(s, at, OPEN);
          if (s.length - keep > at) this.out(s.slice(at, s.length - keep));
          this.carry = s.slice(s.length - keep);
          return;
        }
        if (k > at) this.out(s.slice(at, k));
        this.startPage();
        at = k;
        continue;
      }
      const k = s.indexOf(CLOSE, at);
      if (k < 0) {
        const keep = partialTail(s, at, CLOSE);
        this.take(s.slice(at, s.length - keep));
        this.carry = s.slice(s.length - keep);
        return;
      }
      this.take(s.slice(at, k + CLOSE.length));
      this.endPage();
      at = k + CLOSE.length;
    }
  }

  /** The end of the text: anything held (a page cut short) goes to the parser, which reports it. */
  end(): void {
    if (this.inPage && !this.over) this.out(this.parts.join(''));
    else if (!this.inPage && this.carry) this.out(this.carry);
    this.parts = [];
    this.carry = '';
  }

  private startPage(): void {
    this.inPage = true;
    this.over = false;
    this.parts = [];
    this.held = 0;
    this.head = '';
    this.size = 0;
    this.newlines = 0;
  }

  private take(piece: string): void {
    if (!piece) return;
    this.size += piece.length;
    if (!this.over && this.held + piece.length <= this.maxChars) {
      this.parts.push(piece);
      this.held += piece.length;
      return;
    }
    if (!this.over) {
      this.over = true;
      const kept = this.parts.join('');
      this.head = kept.slice(0, HEAD);
      this.newlines = countNewlines(kept);
      this.parts = [];
      this.held = 0;
    }
    if (this.head.length < HEAD) this.head += piece.slice(0, HEAD - this.head.length);
    this.newlines += countNewlines(piece);
  }

  private endPage(): void {
    this.inPage = false;
    if (!this.over) {
      this.out(this.parts.join(''));
      this.parts = [];
      return;
    }
    this.dropped++;
    const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(this.head)?.[1];
    // Markup of the page's own title etc. is passed as it was written (already escaped XML text).
    const title = field('title');
    const ns = field('ns');
    const id = field('id');
    this.out(`<page>${title !== undefined ? `<title>${title}</title>` : ''}${ns !== undefined ? `<ns>${ns}</ns>` : ''}${id !== undefined ? `<id>${id}</id>` : ''}<oversize>${this.size}</oversize></page>`);
    this.lineOffset += this.newlines;
  }
}

/** Length of the longest end of `s` (from `from`) that is a start of `tag`: it may be cut in two. */
function partialTail(s: string, from: number, tag: string): number {
  for (let n = Math.min(tag.length - 1, s.length - from); n > 0; n--) if (s.endsWith(tag.slice(0, n))) return n;
  return 0;
}

export function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** What a skipped page's record says. */
export function oversizeProblem(title: string, chars: number, maxChars: number): string {
  const mb = (n: number) => (n >= 10 * 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${(n / 1024 / 1024).toFixed(1)} MB`);
  return `page "${title}" is ${mb(chars)} of XML, over the page budget of ${mb(maxChars)}: not read (a page this size is damaged or a decompression bomb; raise the budget with ${PAGE_BUDGET_FLAG} if it is genuine)`;
}
