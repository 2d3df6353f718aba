/** Where the shipped source ranker lives, apart from the ranker so that the command line's help names it without loading it. */
export const DEFAULT_RANKER_FILE = 'models/source-ranker.json';
