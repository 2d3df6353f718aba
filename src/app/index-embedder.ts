/**
 * Which embedder reads an index's vectors. A query vector and the passage vectors it is compared with must
 * come from one model, and an index records the model that made its vectors (its `embedder` setting), so:
 *
 *  - with no embedder named, queries and new passages use the one the index records: the shipped MiniLM,
 *    or USE-lite for an index built before MiniLM became the default (issue 43), which a notice then says,
 *    offering `veracite index --dense` to re-embed it;
 *  - an embedder named (`--embedder`, `models.embedder`) that is not the one recorded is refused, naming
 *    both models and both ways on (drop the flag, or re-embed);
 *  - `index --dense` alone embeds with the named embedder, else the default, and re-embeds every passage
 *    when the index's vectors came from another model it was asked to replace (`reembedPlan`).
 *
 * Nothing is ever silently mixed: a vector space changes only by re-embedding the whole index.
 */
import { isUseModel, type ModelInfo } from '../models/types.js';
import { SHIPPED_EMBEDDER } from '../models/registry.js';
import { sameVectorSpace } from '../store/dense-backfill.js';
import { SettingsError } from '../util/settings-error.js';

/** How the index and the settings stand for the retrieval embedder (app/veracite.ts reads it at open). */
export interface IndexVectors {
  /** The model that made the index's vectors (undefined: no vectors, or no index). */
  recorded?: ModelInfo;
  /** Whether an embedder was named rather than left at its default. */
  named: boolean;
  /** The index as the user wrote it (messages). */
  dir?: string;
}

/** The spec that loads the model an index records, when it is one veracite ships; undefined otherwise. */
export function specOfRecorded(recorded: ModelInfo): 'use' | 'minilm' | undefined {
  if (isUseModel(recorded)) return 'use';
  if (recorded.id === SHIPPED_EMBEDDER.id) return 'minilm';
  return undefined;
}

function indexArg(dir: string | undefined): string {
  return dir ? ` --index ${JSON.stringify(dir)}` : '';
}

/** A model that made vectors, as messages name it. */
export function describeVectors(info: ModelInfo): string {
  return isUseModel(info) ? 'USE-lite (Universal Sentence Encoder lite)' : `${info.id} (${info.version.slice(0, 19)})`;
}

/** The notice an index with USE-lite vectors gets once per process: what it is and how to move on. */
export function oldEmbedderNotice(v: IndexVectors): string {
  return (
    `note: this index's vectors were made by USE-lite, the embedder before ${SHIPPED_EMBEDDER.id}; dense and hybrid ` +
    `queries use USE-lite to match them. ${SHIPPED_EMBEDDER.id} retrieves better (SciFact dev nDCG@10 dense 0.666 vs 0.228, ` +
    `hybrid 0.726 vs 0.688): re-embed the index with it by \`veracite index --dense${indexArg(v.dir)}\`.`
  );
}

/** A named embedder that is not the index's: refused before any query reads the other model's vectors. */
export function mismatchError(v: IndexVectors & { recorded: ModelInfo }, want: ModelInfo, spec: string): SettingsError {
  const keep = specOfRecorded(v.recorded);
  return new SettingsError(
    'models.embedder',
    `the index's vectors were made by ${describeVectors(v.recorded)}, not ${describeVectors(want)}: queries must use the model that made them. ` +
      `${keep ? `Drop the flag (or give --embedder ${keep}) to search them as they are` : 'Name the embedder that made them to search them as they are'}, ` +
      `or re-embed the whole index with the new one: veracite index --dense --embedder ${spec}${indexArg(v.dir)}`,
  );
}

/** What `index --dense` alone does to an index whose vectors may come from another model. */
export type ReembedPlan = 'add-missing' | 'reembed-all';

/**
 * `index --dense` with no files: add the missing vectors with the index's own model, or re-embed all of
 * them when asked for another model (named) or when they are USE-lite's and none was named (the notice's
 * offer). Another model's vectors with none named: refused, saying which model made them.
 */
export function reembedPlan(v: IndexVectors, target: ModelInfo, spec: string): ReembedPlan {
  if (!v.recorded || sameVectorSpace(v.recorded, target)) return 'add-missing';
  if (v.named || isUseModel(v.recorded)) return 'reembed-all';
  throw new SettingsError(
    'models.embedder',
    `the index's vectors were made by ${describeVectors(v.recorded)}; name it with --embedder <its folder or hub id> to add the missing vectors, ` +
      `or give --embedder ${spec} to re-embed them all with ${target.id}${indexArg(v.dir)}`,
  );
}
