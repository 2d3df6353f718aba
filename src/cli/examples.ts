/**
 * `--help` examples for every command, in one place so they read as one guide. Each names real shipped
 * files (data/samples) or the shared data the README uses, so they can be copied as they are.
 */
import type { Command } from 'commander';

export const EXAMPLES: Record<string, string[]> = {
  index: [
    'veracite index data/samples/scifact/corpus.jsonl --index .veracite/demo',
    'veracite index ../shared/data/scifact/corpus.jsonl --index .veracite/scifact --dense   # + vectors: dense/hybrid search',
    'veracite index my-pages/ --index .veracite/mine --on-error stop                        # a folder of .txt/.md/.html',
  ],
  search: [
    'veracite search "vitamin D deficiency and fracture risk" --index .veracite/demo -k 5',
    'veracite search "vitamin D deficiency and fracture risk" --index .veracite/scifact --mode hybrid --json',
  ],
  verify: [
    'veracite verify "ALDH1 expression is associated with poorer prognosis in breast cancer." --index .veracite/demo',
    'veracite verify - --index .veracite/demo < claim.txt                                  # a long claim on stdin',
    'veracite verify --claims data/samples/scifact/claims_dev.jsonl --out verdicts.jsonl --index .veracite/demo',
  ],
  audit: [
    // The first example checks something on a fresh clone: the shipped sample with its saved sources, after `veracite demo`.
    'veracite audit data/samples/audit/Breast_cancer_risk_factors.txt --sources data/samples/audit/sources --index .veracite/demo --limit 5   # after veracite demo',
    'veracite audit data/samples/audit/Breast_cancer_risk_factors.txt --sources data/samples/audit/sources --index .veracite/demo --all --html report.html',
    'veracite audit article.wikitext --no-index --sources saved-pages/ --out audit.json',
    'veracite audit https://en.wikipedia.org/wiki/Bodmin --fetch --index .veracite/mine   # live fetch, SSRF-guarded',
  ],
  check: [
    'veracite check "Loss of Scribble cooperates with the c-myc oncogene to transform epithelial cells by blocking apoptosis." --source data/samples/audit/sources/scifact-45638119.txt --index .veracite/demo',
    'veracite check "Grey seal pup production rose between 2016 and 2021." --source data/samples/documents/sources/pdf/seal-survey-2021.pdf --no-index',
    'veracite check "The tower is 26 metres tall." --source https://example.org/tower --fetch --index .veracite/mine --json',
    'veracite check --pairs pairs.jsonl --out checks.jsonl --index .veracite/mine          # {"id", "claim", "source" | "text"} per line; resumable',
  ],
  serve: ['veracite serve --index .veracite/demo --port 8080', 'veracite serve --index .veracite/scifact --fetch --sources saved-pages/'],
  demo: ['veracite demo', 'veracite demo --index /tmp/veracite-demo --quiet'],
  train: ['veracite train --data ../shared/data --seed 13', 'veracite train --data ../shared/data --only nli --annotations annotations.jsonl'],
  'tune-verdict': ['veracite tune-verdict --index .veracite/scifact --data ../shared/data --seed 13', 'veracite tune-verdict --domains --data ../shared/data'],
  calibrate: ['veracite calibrate --data ../shared/data/wice/claim_dev.jsonl', 'veracite calibrate --data ../shared/data/wice/claim_dev.jsonl --signal ranker --ranker default --out models/calibration/wice-dev-ranker.json'],
  'train-ranker': ['veracite train-ranker --index tmp/audit/wice-pooled --queries ../shared/data/wice/retrieval_dev_queries.jsonl --corpus ../shared/data/wice/retrieval_dev_corpus.jsonl ../shared/data/scifact/corpus.jsonl'],
  'eval retrieval': [
    'veracite eval retrieval --index .veracite/scifact --task scifact --queries ../shared/data/scifact/claims_dev.jsonl --mode hybrid',
    'veracite eval retrieval --index .veracite/wice --task wice --queries ../shared/data/wice/retrieval_dev_queries.jsonl',
  ],
  'eval scifact': ['veracite eval scifact --index .veracite/scifact --claims ../shared/data/scifact/claims_dev.jsonl --mode bm25'],
  'eval fever': ['veracite eval fever --index .veracite/fever-wiki --claims ../shared/data/fever/paper_dev.jsonl --limit 1000'],
  'eval citation-detection': ['veracite eval citation-detection --data ../shared/data/wice/claim_dev.jsonl --ranker default'],
  'eval audit': [
    'veracite eval audit data/samples/audit/Breast_cancer_risk_factors.txt --sources data/samples/audit/sources --labels data/samples/audit/labels.jsonl --index .veracite/demo',
  ],
  'eval contrast': ['veracite eval contrast --index .veracite/scifact --claims ../shared/data/scifact/claims_dev.jsonl --mode bm25'],
  'eval domains': ['veracite eval domains --data ../shared/data', 'veracite eval domains --sick --out eval-results/verdict-domains-sick.json'],
  'eval report': ['veracite eval report eval-results/citation-detection.json eval-results/scifact.json --html eval-report.html'],
  'eval citation-recovery': ['veracite eval citation-recovery --index tmp/audit/wice-pooled --queries ../shared/data/wice/retrieval_dev_queries.jsonl'],
  'models list': ['veracite models list', 'veracite models list --json'],
  'models pull': ['veracite models pull nli-small                                     # download, verify SHA-256, calibrate on data/samples/calibration', 'veracite models pull Xenova/nli-deberta-v3-xsmall --role nli --name my-nli'],
  'models calibrate': ['veracite models calibrate nli-small'],
  'models info': ['veracite models info nli-small --json'],
  'models use': ['veracite models use nli-small', 'veracite models use lite                                           # the fast lite heads as the default'],
  'models remove': ['veracite models remove nli-small'],
  'models import': ['veracite models import /media/usb/veracite-models/nli-small      # pulled on a connected machine'],
  'models add': [
    'veracite models add minicheck --engine ollama --base-url http://127.0.0.1:11434 --model bespoke-minicheck:7b',
    'veracite models add gpt-mini --engine openai --base-url https://api.openai.com/v1 --model gpt-4o-mini --api-key-env OPENAI_API_KEY --price-input 0.15 --price-output 0.60',
  ],
  'annotations export': ['veracite annotations export --index .veracite/demo --out annotations.jsonl', 'veracite annotations export --index .veracite/demo --as nli --out nli-pairs.jsonl'],
};

/** Appends "Examples:" to the help of every command that has some (recursively; keys are command paths). */
export function addExamples(cmd: Command, path: string[] = []): void {
  for (const sub of cmd.commands) {
    const key = [...path, sub.name()].join(' ');
    const lines = EXAMPLES[key];
    if (lines) sub.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
    addExamples(sub, [...path, sub.name()]);
  }
}
