/**
 * The command line's option groups, each defined once and mapped to one setting (src/app/settings.ts).
 * A command picks the groups (or the options of a group) it needs; `settingsFrom` turns what the user typed
 * into settings, and `flagOf` maps a setting back to its flag, so an error from the core that names
 * `retrieval.mode` reaches the user as `--mode`. Values are checked here, at the edge, so a typo names its
 * option instead of failing deep inside the pipeline. Defaults are the settings' own, shown in the help.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEVICES, FUSION_METHODS, RETRIEVAL_MODES, parseSettings, type SettingsInput } from '../app/settings.js';
import { QUERY_CONTEXTS } from '../audit/query.js';
import { MODEL_SPEC_HELP } from '../models/registry.js';
import { VERDICT_RULES } from '../verify/aggregate.js';
import { WORK_API_BASES } from '../sources/work-api-bases.js';
import { SEARCH_API_BASES } from '../search/search-api-bases.js';
import { SEARCH_PROVIDERS } from '../search/types.js';

/** Names `--api-base` takes: the metadata APIs and the search APIs. */
const API_NAMES = [...Object.keys(WORK_API_BASES), ...Object.keys(SEARCH_API_BASES)];

/** "wikipedia,openalex" -> the providers, each checked. */
function searchProviders(value: string): string[] {
  const out = value.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
  const bad = out.filter((p) => !(SEARCH_PROVIDERS as readonly string[]).includes(p));
  if (bad.length || !out.length) throw new InvalidArgumentError(`--search: "${bad.join(',') || value}" is not a search provider; use one or more of ${SEARCH_PROVIDERS.join(', ')}, comma-separated`);
  return [...new Set(out)];
}

export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive integer (got "${value}")`);
    return n;
  };
}

/** Seconds (a positive number, fractions allowed) -> whole milliseconds. */
export function secondsToMs(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number of seconds (got "${value}")`);
    return Math.max(1, Math.round(n * 1000));
  };
}

export function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer (got "${value}")`);
    return n;
  };
}

export function finiteNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number (got "${value}")`);
    return n;
  };
}

export function oneOf<T extends string>(name: string, values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`${name} must be one of ${values.join(', ')} (got "${value}")`);
    return value as T;
  };
}

export function unitInterval(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`${name} must be a number in [0, 1] (got "${value}")`);
    return n;
  };
}

/** "crossref=https://m.example,doi=http://127.0.0.1:8080" -> {crossref: ..., doi: ...}; a name not known or a bad URL names the flag. */
function apiBases(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    const url = part.slice(eq + 1).trim();
    if (eq <= 0 || !API_NAMES.includes(name)) throw new InvalidArgumentError(`--api-base: "${part}" must be name=url with name one of ${API_NAMES.join(', ')}`);
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new InvalidArgumentError(`--api-base: ${name}: "${url}" is not an http(s) URL`);
    out[name] = url;
  }
  return out;
}

/** The settings' defaults, shown in help texts (never hard-coded twice). */
const DEFAULTS = parseSettings({});
export const DEFAULT_INDEX = DEFAULTS.index.dir!;

interface OptionDef {
  flags: string;
  /** Dotted settings path. */
  setting: string;
  help: string;
  parse?: (value: string) => unknown;
  /** For --no-x flags: the setting's value when the flag is given (commander passes false). */
  whenNegated?: unknown;
}

const def = (flags: string, setting: string, help: string, parse?: (v: string) => unknown, whenNegated?: unknown): OptionDef => ({
  flags,
  setting,
  help,
  ...(parse ? { parse } : {}),
  ...(whenNegated !== undefined ? { whenNegated } : {}),
});

/** Every option that maps to a setting, by group. One flag per setting, one setting per flag. */
export const OPTION_GROUPS = {
  index: {
    index: def('--index <dir>', 'index.dir', `index: a directory (LanceDB, default ${DEFAULT_INDEX}), opensearch://host:port/name (OpenSearch; credentials from OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD), or memory: (empty, in memory)`),
    noIndex: def('--no-index', 'index.dir', 'no index: sources from --sources / --fetch only, no suggestions', undefined, null),
  },
  models: {
    embedder: def('--embedder <spec>', 'models.embedder', `embedder for dense retrieval: ${MODEL_SPEC_HELP.embedder}`),
    scorer: def('--scorer <spec>', 'models.scorer', `evidence scorer / verification engine: ${MODEL_SPEC_HELP.scorer}`),
    nli: def('--nli <spec>', 'models.nli', `entailment model: ${MODEL_SPEC_HELP.nli}`),
    device: def('--device <device>', 'models.device', `ONNX device: ${DEVICES.join('|')} (default ${DEFAULTS.models.device})`, oneOf('--device', DEVICES)),
    cache: def('--embedding-cache <dir>', 'models.cache', "on-disk cache of the trained engine's sentence vectors (re-runs skip embedding)"),
    profile: def('--profile <name>', 'models.profile', "verification engine: 'verifier' = the shipped ONNX cross-encoder, 'lite' = the fast Universal Sentence Encoder heads ('offline' the same), or a calibrated profile (veracite models list) (default: the active profile (veracite models use), else the package's default engine: lite until the verifier is marked default in models/engine)"),
    judge: def('--judge <which>', 'models.judge', "LLM judge profiles: all (every evidence pair) | uncertain (only pairs the offline head leaves uncertain) (default: the profile's)", oneOf('--judge', ['all', 'uncertain'] as const)),
    maxCalls: def('--max-calls <n>', 'models.maxCalls', 'LLM judge profiles: requests this run may send at most; cache hits are free, later pairs are read by the offline head', nonNegativeInt('--max-calls')),
  },
  retrieval: {
    mode: def('--mode <mode>', 'retrieval.mode', `retrieval: ${RETRIEVAL_MODES.join('|')}; auto = hybrid when the index has vectors, else bm25 (default auto)`, oneOf('--mode', RETRIEVAL_MODES)),
    fusion: def('--fusion <method>', 'retrieval.fusion', `how hybrid search combines BM25 and dense lists: ${FUSION_METHODS.join('|')} (default ${DEFAULTS.retrieval.fusion})`, oneOf('--fusion', FUSION_METHODS)),
    sparseWeight: def('--sparse-weight <w>', 'retrieval.sparseWeight', 'weighted fusion: weight of BM25 in [0, 1] (default: 0.6 with all-MiniLM-L6-v2 vectors, 0.8 with USE-lite ones; chosen on SciFact train)', unitInterval('--sparse-weight')),
    depth: def('--depth <n>', 'retrieval.depth', `passages taken from each first-stage list, BM25 and dense (default ${DEFAULTS.retrieval.depth})`, positiveInt('--depth')),
  },
  verify: {
    candidates: def('--candidates <n>', 'verify.candidates', `candidate documents whose sentences are scored as evidence (default ${DEFAULTS.verify.candidates})`, positiveInt('--candidates')),
    evidence: def('--evidence <mode>', 'verify.evidence', 'evidence selection: sentence (each sentence alone) | document (every sentence of a document in context) (default sentence)', oneOf('--evidence', ['sentence', 'document'] as const)),
    rule: def('--rule <rule>', 'verify.rule', `verdict rule: ${VERDICT_RULES.join('|')} (default: the better one on SciFact train, models/verdict-calibration.json)`, oneOf('--rule', VERDICT_RULES)),
    titleMatch: def('--no-title-match', 'verify.titleMatch', 'no entity/title document retrieval', undefined, false),
    hop: def('--hop', 'verify.hop', 'follow links of evidence documents (corpora with links)'),
  },
  scoring: {
    granularity: def('--granularity <g>', 'scoring.granularity', `passage score: sentence (max over its sentences) | passage (whole passage) (default ${DEFAULTS.scoring.granularity})`, oneOf('--granularity', ['sentence', 'passage'] as const)),
    queryContext: def('--query-context <c>', 'scoring.queryContext', `context in the verification query: ${QUERY_CONTEXTS.join('|')} (default ${DEFAULTS.scoring.queryContext})`, oneOf('--query-context', QUERY_CONTEXTS)),
    preselect: def('--preselect <n>', 'scoring.preselect', `sentences or passages scored per page, best TF-IDF matches first; 0 = all (default ${DEFAULTS.scoring.preselect})`, nonNegativeInt('--preselect')),
  },
  audit: {
    recommend: def('--no-recommend', 'audit.recommend', 'no source suggestions', undefined, false),
    candidates: def('--rerank <n>', 'audit.candidates', `candidate documents reranked per citation for suggestions (default ${DEFAULTS.audit.candidates})`, positiveInt('--rerank')),
    suggestions: def('--suggestions <n>', 'audit.suggestions', `suggested sources per citation, at most (default ${DEFAULTS.audit.suggestions})`, positiveInt('--suggestions')),
    firstStageWeight: def('--first-stage-weight <w>', 'audit.firstStageWeight', 'without a source ranker: weight of 1/first-stage-rank added to the verification score when ordering candidates (default 0)', finiteNumber('--first-stage-weight')),
    ranker: def('--ranker <spec>', 'audit.ranker', "source ranker: default (models/source-ranker.json when it fits the engine) | off | a weights file (default default)"),
    calibration: def('--calibration <file>', 'audit.calibration', 'threshold file from "veracite calibrate" (default: the committed one made for these settings)'),
    definition: def('--definition <name>', 'audit.definition', 'which calibrated definition flags: not_supported | not_or_partially_supported (default: the calibration file\'s)'),
    threshold: def('--threshold <x>', 'audit.threshold', 'flag citations scoring at or below x (overrides the calibration)', finiteNumber('--threshold')),
    concurrency: def('--citation-concurrency <n>', 'audit.concurrency', `citations audited at once (default ${DEFAULTS.audit.concurrency})`, positiveInt('--citation-concurrency')),
    maxCitations: def('--max-citations <n>', 'audit.maxCitations', `citations one audit checks at most; an article with more is refused (audit its first n with --limit n) (default ${DEFAULTS.audit.maxCitations})`, positiveInt('--max-citations')),
    anyLanguage: def('--any-language', 'audit.anyLanguage', 'score claims and sources that are not English anyway (the models and the index read English only; without it such a pair is "could not check (language)")'),
    claimText: def('--claim-text <t>', 'audit.claimText', 'what is verified for a mid-sentence citation: sentence (the whole sentence, default) | prefix (the text before the marker, as SIDE)', oneOf('--claim-text', ['sentence', 'prefix'] as const)),
  },
  sources: {
    folder: def('--sources <dir>', 'sources.folder', 'folder of saved source pages (manifest.jsonl {url, path}, or files named by URL hash)'),
    fetch: def('--fetch', 'sources.fetch', 'fetch sources (and URL articles) live: SSRF-guarded, cached, archive fallback for dead pages'),
    cache: def('--cache <dir>', 'sources.cache', 'cache of fetched pages and search answers (default <index>/page-cache, else .veracite/page-cache)'),
    timeoutMs: def('--fetch-timeout <ms>', 'sources.timeoutMs', `per-request timeout in ms (default ${DEFAULTS.sources.timeoutMs})`, positiveInt('--fetch-timeout')),
    maxBytes: def('--max-bytes <n>', 'sources.maxBytes', `largest page read, bytes (default ${DEFAULTS.sources.maxBytes})`, positiveInt('--max-bytes')),
    maxRedirects: def('--max-redirects <n>', 'sources.maxRedirects', `redirect hops followed (default ${DEFAULTS.sources.maxRedirects})`, nonNegativeInt('--max-redirects')),
    wayback: def('--no-wayback', 'sources.wayback', 'do not try the Wayback Machine for dead pages without an archive URL', undefined, false),
    apis: def('--api-base <name=url,...>', 'sources.apis', `identifier resolvers, metadata and search APIs at a mirror: ${API_NAMES.join(', ')} (e.g. crossref=https://crossref.mirror.example, searxng=https://searx.example)`, apiBases),
    contactEmail: def('--contact-email <email>', 'sources.contactEmail', 'your contact e-mail, sent in the User-Agent (Wikimedia\'s policy wants one) and to the polite pools (Crossref/OpenAlex mailto, Europe PMC email); default VERACITE_CONTACT_EMAIL'),
    openAbstracts: def('--open-abstracts', 'sources.openAbstracts', 'ask OpenAlex for a DOI\'s abstract when Crossref has none'),
    apiIntervalMs: def('--api-interval <ms>', 'sources.apiIntervalMs', 'least ms between two requests to one metadata API (default: each API\'s polite interval)', nonNegativeInt('--api-interval')),
    offline: def('--offline', 'sources.offline', 'replay from --cache only: recorded pages and search answers, no request (what is not there is "could not reach")'),
  },
  parse: {
    timeoutMs: def('--parse-timeout <seconds>', 'parse.timeoutMs', `time to read one document (article, uploaded file, fetched page) in its parse worker; longer is refused (default ${DEFAULTS.parse.timeoutMs / 1000})`, secondsToMs('--parse-timeout')),
    heapMb: def('--parse-memory <MB>', 'parse.heapMb', `memory of one parse worker; a document needing more is refused (default ${DEFAULTS.parse.heapMb})`, positiveInt('--parse-memory')),
    pdfInflateMb: def('--pdf-inflate-limit <MB>', 'parse.pdfInflateMb', `a PDF whose text streams inflate past this is refused as a decompression bomb (default ${DEFAULTS.parse.pdfInflateMb})`, positiveInt('--pdf-inflate-limit')),
    pdfTextChars: def('--pdf-text-limit <chars>', 'parse.pdfTextChars', `characters of text read from one PDF at most (default ${DEFAULTS.parse.pdfTextChars})`, positiveInt('--pdf-text-limit')),
  },
  search: {
    providers: def('--search <providers>', 'search.providers', `search for evidence (no index needed): ${SEARCH_PROVIDERS.join(',')}, comma-separated (brave: key in BRAVE_SEARCH_API_KEY; searxng: --api-base searxng=URL)`, searchProviders),
    wiki: def('--wiki <lang>', 'search.wiki', `Wikipedia language edition searched (default ${DEFAULTS.search.wiki})`),
    maxQueries: def('--search-queries <n>', 'search.maxQueries', `search requests per claim, across providers (default ${DEFAULTS.search.maxQueries})`, positiveInt('--search-queries')),
    maxFetches: def('--search-fetches <n>', 'search.maxFetches', `pages and texts read per claim (default ${DEFAULTS.search.maxFetches})`, nonNegativeInt('--search-fetches')),
    suggestFrom: def('--suggest-from <where>', 'search.suggestFrom', 'where better sources come from: index | search (flagged and needs-review citations; providers from --search, default openalex,europepmc,crossref)', oneOf('--suggest-from', ['index', 'search'] as const)),
  },
} as const satisfies Record<string, Record<string, OptionDef>>;

export type OptionGroup = keyof typeof OPTION_GROUPS;
export type OptionPick = { [G in OptionGroup]?: true | (keyof (typeof OPTION_GROUPS)[G])[] };

function picked(pick: OptionPick): OptionDef[] {
  const out: OptionDef[] = [];
  for (const [group, which] of Object.entries(pick) as [OptionGroup, true | string[]][]) {
    const defs = OPTION_GROUPS[group] as Record<string, OptionDef>;
    // --no-index is an opt-in: only commands that can run without an index list it.
    const keys = which === true ? Object.keys(defs).filter((k) => !(group === 'index' && k === 'noIndex')) : which;
    for (const k of keys) out.push(defs[k]!);
  }
  return out;
}

/** Adds the picked options to a command (no commander defaults: the settings fill them). */
export function addOptions(cmd: Command, pick: OptionPick): Command {
  for (const d of picked(pick)) {
    const o = new Option(d.flags, d.help);
    if (d.parse) o.argParser(d.parse);
    cmd.addOption(o);
  }
  return cmd;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = target;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
  at[keys.at(-1)!] = value;
}

/**
 * The settings the user typed, from commander's parsed values. Absent options are left out (the settings'
 * defaults apply); `base` holds command-specific settings the flags may override.
 */
export function settingsFrom(values: Record<string, unknown>, pick: OptionPick, base: SettingsInput = {}): SettingsInput {
  const out = structuredClone(base) as Record<string, unknown>;
  for (const d of picked(pick)) {
    const name = new Option(d.flags).attributeName();
    const v = values[name];
    if (v === undefined) continue;
    if (d.whenNegated !== undefined) {
      // commander gives true by default for --no-x and false when given; only the given case is a setting.
      if (v === false) setPath(out, d.setting, d.whenNegated);
      continue;
    }
    setPath(out, d.setting, v);
  }
  return out as SettingsInput;
}

const FLAG_OF = new Map<string, string>();
for (const group of Object.values(OPTION_GROUPS) as Record<string, OptionDef>[]) {
  for (const d of Object.values(group)) if (!d.whenNegated && !FLAG_OF.has(d.setting)) FLAG_OF.set(d.setting, d.flags.split(/[ ,]/)[0]!);
}

/** The flag that sets a setting ("retrieval.mode" -> "--mode"), for error messages. */
export function flagOf(setting: string): string | undefined {
  return FLAG_OF.get(setting);
}
