/**
 * linkedom (the DOM that HTML pages, Wikipedia's rendered HTML and the work APIs' XML are read with), loaded on
 * first use from its CommonJS build. Why: its ESM entry is ~120 modules, and importing it at a module's top cost
 * ~0.5 s of CPU at the start of every process that imports the store, the document readers or the server (80 of
 * the test files), most of which never parse a page; the CommonJS build costs ~0.3 s, once, when a page is first
 * parsed. Same package and version: sample HTML pages and API XML answers serialise identically through both.
 */
import { createRequire } from 'node:module';
import type * as Linkedom from 'linkedom';

let loaded: typeof Linkedom | undefined;

function linkedom(): typeof Linkedom {
  loaded ??= createRequire(import.meta.url)('linkedom') as typeof Linkedom;
  return loaded;
}

/** linkedom's `parseHTML(html)`: a window whose `document` is the parsed page. */
export function parseHTML(html: string): ReturnType<typeof Linkedom.parseHTML> {
  return linkedom().parseHTML(html);
}

/** A new linkedom `DOMParser` (for XML answers). */
export function newDOMParser(): InstanceType<typeof Linkedom.DOMParser> {
  return new (linkedom().DOMParser)();
}
