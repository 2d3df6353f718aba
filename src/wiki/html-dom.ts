/**
 * The part of the DOM that the HTML reader uses. The project compiles without the DOM lib (Node only),
 * and linkedom's declarations type its document loosely, so we name what we rely on here.
 */
export interface HtmlNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<HtmlNode>;
}

export interface HtmlElement extends HtmlNode {
  tagName: string;
  outerHTML: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
  contains(other: HtmlNode): boolean;
  closest(selector: string): HtmlElement | null;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export function isElement(node: HtmlNode): node is HtmlElement {
  return node.nodeType === ELEMENT_NODE;
}

export function hasClass(el: HtmlElement, name: string): boolean {
  return (el.getAttribute('class') ?? '').split(/\s+/).includes(name);
}

/** Whitespace-normalised text of an element. */
export function textOf(el: HtmlElement | null | undefined): string {
  return (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
