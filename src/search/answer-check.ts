/**
 * Every provider answer is checked against a schema of the fields it reads (zod) before any is used: a
 * wrong type (`"extract": 42`), a null where a list was, a position or a length no real answer has, is the
 * provider's failure, named by its path ("malformed answer: results.0.abstract_inverted_index: ..."), and
 * never the process's (a crash, or minutes spent building a 4-billion-slot array). Fields the code does not
 * read are not checked: services add fields freely.
 */
import { z } from 'zod';

/** Results read from one answer: more is not a page of search results. */
export const MAX_RESULTS = 100;
/** Words in one abstract (OpenAlex's inverted index): real ones have a few hundred. */
export const MAX_ABSTRACT_WORDS = 20_000;
/** Characters in one text field (a title, a snippet, an abstract, an article's text). */
export const MAX_TEXT_CHARS = 2_000_000;

/** A text field as APIs send them: absent, null, or a string of sane length. */
export const text = () => z.string().max(MAX_TEXT_CHARS, { error: `longer than ${MAX_TEXT_CHARS} characters` }).nullish();

/** A list of results: its length is checked before any item is (a million items are refused at once, not read). */
export const results = <T extends z.ZodType>(item: T) => z.array(z.unknown()).max(MAX_RESULTS, { error: `more than ${MAX_RESULTS} results` }).pipe(z.array(item));

/** The answer as the schema has it, or an Error naming the first field that is wrong. */
export function checked<S extends z.ZodType>(schema: S, answer: unknown): z.output<S> {
  const r = schema.safeParse(answer);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const where = issue.path.length ? issue.path.map(String).join('.') : 'the answer';
  throw new Error(`malformed answer: ${where}: ${issue.message}`);
}
