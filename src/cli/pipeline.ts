/**
 * Builds the retrieval / verification pipeline from CLI flags: the store, the models (offline defaults or
 * the user's ONNX models) and the configuration. Shared by search, verify and eval commands.
 */
import type { Command } from 'commander';
import { loadEmbedder, loadVerifierModels } from '../models/registry.js';
import type { Embedder } from '../models/types.js';
import { Retriever, SEARCH_MODES, type SearchMode } from '../retrieve/retriever.js';
import type { FusionMethod } from '../retrieve/fusion.js';
import { LanceStore } from '../store/lancedb-store.js';
import { VERDICT_RULES, type VerdictRule } from '../verify/aggregate.js';
import { Verifier } from '../verify/verifier.js';
import { DEFAULT_INDEX, oneOf, positiveInt, unitInterval } from './options.js';

export interface RetrievalFlags {
  index: string;
  mode: SearchMode;
  fusion: FusionMethod;
  sparseK: number;
  denseK: number;
  embedder: string;
  sparseWeight?: number;
}

export interface VerifyFlags extends RetrievalFlags {
  scorer: string;
  nli: string;
  evidence: 'sentence' | 'document';
  rule?: VerdictRule;
  maxDocs: number;
  titleMatch: boolean;
  hop: boolean;
  device: 'cpu' | 'cuda';
}

export function addRetrievalOptions(cmd: Command, defaultMode: SearchMode = 'bm25'): Command {
  return cmd
    .option('--index <dir>', 'index directory', DEFAULT_INDEX)
    .option('--mode <mode>', `retrieval: ${SEARCH_MODES.join('|')}`, oneOf('--mode', SEARCH_MODES), defaultMode)
    .option('--fusion <method>', 'hybrid fusion: union|rrf|weighted', oneOf('--fusion', ['union', 'rrf', 'weighted'] as const), 'weighted')
    .option('--sparse-k <n>', 'passages from BM25 (first stage)', positiveInt('--sparse-k'), 100)
    .option('--dense-k <n>', 'passages from dense search (first stage)', positiveInt('--dense-k'), 100)
    .option('--sparse-weight <w>', 'weighted fusion: weight of BM25 in [0, 1] (default from DEFAULT_RETRIEVER_CONFIG)', unitInterval('--sparse-weight'))
    .option('--embedder <spec>', "'use' (offline default) or an ONNX model folder / hub id", 'use');
}

export function addVerifyOptions(cmd: Command): Command {
  return addRetrievalOptions(cmd)
    .option('--scorer <spec>', "evidence scorer: 'trained' (default) or an ONNX cross-encoder folder / hub id", 'trained')
    .option('--nli <spec>', "entailment model: 'trained' (default) or an ONNX NLI folder / hub id", 'trained')
    .option('--evidence <mode>', 'evidence selection: sentence|document', oneOf('--evidence', ['sentence', 'document'] as const), 'sentence')
    .option('--rule <rule>', `verdict rule: ${VERDICT_RULES.join('|')} (default: the better one on SciFact train, models/verdict-calibration.json)`, oneOf('--rule', VERDICT_RULES))
    .option('--max-docs <n>', 'candidate documents', positiveInt('--max-docs'), 10)
    .option('--no-title-match', 'no entity/title document retrieval')
    .option('--hop', 'follow links of evidence documents (corpora with links)')
    .option('--device <device>', 'ONNX device: cpu|cuda', oneOf('--device', ['cpu', 'cuda'] as const), 'cpu');
}

function fusionOf(flags: RetrievalFlags): { method: FusionMethod; sparseWeight?: number } {
  return flags.sparseWeight === undefined ? { method: flags.fusion } : { method: flags.fusion, sparseWeight: flags.sparseWeight };
}

export async function openRetriever(flags: RetrievalFlags): Promise<{ store: LanceStore; retriever: Retriever; embedder?: Embedder }> {
  const store = await LanceStore.open(flags.index, { create: false });
  const needsEmbedder = flags.mode !== 'bm25';
  const embedder = needsEmbedder ? await loadEmbedder(flags.embedder) : undefined;
  const retriever = new Retriever(store, embedder, { mode: flags.mode, fusion: fusionOf(flags), sparseK: flags.sparseK, denseK: flags.denseK });
  return { store, retriever, embedder };
}

export async function openVerifier(flags: VerifyFlags): Promise<{ store: LanceStore; retriever: Retriever; verifier: Verifier }> {
  const store = await LanceStore.open(flags.index, { create: false });
  const models = await loadVerifierModels({ embedder: flags.embedder, scorer: flags.scorer, nli: flags.nli, onnx: { device: flags.device } });
  const retriever = new Retriever(store, flags.mode === 'bm25' ? undefined : models.embedder, {
    mode: flags.mode,
    fusion: fusionOf(flags),
    sparseK: flags.sparseK,
    denseK: flags.denseK,
  });
  const verifier = new Verifier(store, retriever, models, {
    documents: { mode: flags.mode, maxDocs: flags.maxDocs, titleMatch: flags.titleMatch },
    evidence: { mode: flags.evidence },
    hop: { enabled: !!flags.hop },
    verdict: flags.rule ? { rule: flags.rule } : {},
  });
  return { store, retriever, verifier };
}
