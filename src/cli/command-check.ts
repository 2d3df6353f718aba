/**
 * `veracite check "<claim>" --source <file | URL | ->`: does this source support this claim? One citation
 * judged as `veracite audit` judges each of an article's (src/app/check-source.ts): the probability that the
 * source supports the claim, supported or likely fails verification and why, the source's evidence
 * sentences, and better sources from the index. For a fact-checker with one page in hand; the HTTP API's
 * POST /v1/citations/check answers the same question.
 */
import type { Command } from 'commander';
import type { SourceCheck } from '../app/check-source.js';
import type { SourceSentence, SourceView } from '../audit/citation-view.js';
import type { CitationBand } from '../audit/types.js';
import { coverageInWords } from '../verify/coverage.js';
import { SettingsError } from '../util/settings-error.js';
import { checkedClaim } from '../verify/claim-text.js';
import { AUDIT_OPTIONS } from './command-audit.js';
import { snapshotText } from './format.js';
import { withApp } from './open-app.js';
import { addOptions } from './options.js';
import { modelLabel } from '../provenance/model-label.js';

interface CheckFlags extends Record<string, unknown> {
  source?: string;
  pairs?: string;
  out: string;
  quiet?: boolean;
  sourceTitle?: string;
  context?: string;
  title?: string;
  section?: string;
  json?: boolean;
}

export function registerCheckCommand(program: Command): void {
  addOptions(
    program
      .command('check')
      .description('does this source support this claim? one citation judged as the audit judges each: probability of support, supported or likely fails verification, evidence, better sources from the index')
      .argument('[claim]', 'the statement the source is cited for')
      .option('--source <where>', "the cited source: a saved page (.txt, .md, .html, .pdf), '-' for stdin, or an http(s) URL (looked up in --sources / the index; fetched with --fetch)")
      .option('--pairs <file>', 'batch mode: JSONL of {"id", "claim", "source" (a path, relative to the file, or a URL) or "text", and optional "context", "title", "section", "source_title"}')
      .option('--out <file>', 'batch mode: JSONL output, one line per pair, resumed if it exists', 'checks.jsonl')
      .option('--quiet', 'batch mode: no progress output')
      .option('--source-title <title>', 'title of the source, read with its text (default: an HTML page\'s or PDF\'s own; not the file name)')
      .option('--context <text>', 'text before the claim in the article (its sentences join the query for suggestions)')
      .option('--title <title>', 'title of the article that cites the source')
      .option('--section <path>', 'section path in the article, e.g. "History > Early years"')
      .option('--json', 'print the whole check as JSON (the audit record, the status, the API\'s view)'),
    AUDIT_OPTIONS,
  ).action(async (claim: string | undefined, flags: CheckFlags) => {
    const [{ contextSentences, sectionPathOf }, { checkPairs }, { readSourceArgument }] = await Promise.all([import('../app/check-source.js'), import('./check-pairs.js'), import('./source-argument.js')]);
    if (flags.pairs) {
      if (claim !== undefined || flags.source) throw new SettingsError('--pairs', 'give either a claim with --source, or --pairs, not both');
      await checkPairs(flags);
      return;
    }
    if (claim === undefined || !flags.source) throw new SettingsError('--source', 'give a claim and --source <file | URL | ->, or --pairs <file> for a batch');
    // Checked before the source is read and any model loads.
    const text = checkedClaim(claim);
    const source = await readSourceArgument(flags.source, flags.sourceTitle);
    const result = await withApp(flags, AUDIT_OPTIONS, async (vc) => {
      const pipeline = await vc.auditPipeline();
      for (const note of pipeline.notes) console.error(`note: ${note}`);
      return vc.check({
        claim: text,
        source,
        context: contextSentences(flags.context),
        ...(flags.title ? { title: flags.title } : {}),
        sectionPath: sectionPathOf(flags.section),
      });
    });
    if (flags.json) console.log(JSON.stringify(result, null, 2));
    else printCheck(result);
  });
}

/**
 * Why the band and the NLI verdict take opposite sides, when they do: the band follows the probability of
 * support (with how closely the page words the claim), fitted on labelled Wikipedia citations; the NLI
 * verdict (fitted on SciFact abstracts) decides it only when the source states the conflict in so many words
 * (a decisive finding). Said once, under the band: the band stays the one label.
 */
export function readingsDisagree(band: CitationBand, supportLabel: string | undefined): ((signal: string | undefined, v: NonNullable<SourceCheck['audit']['verification']>) => string) | undefined {
  if ((band === 'supported' || band === 'partly-supported') && supportLabel === 'REFUTES') {
    return (signal, v) => {
      const by =
        signal === 'support'
          ? `the probability of support with how closely the page words the claim${v.similarity !== undefined ? ` (similarity ${v.similarity.toFixed(3)})` : ''}`
          : signal === 'ranker'
            ? "the source ranker's score"
            : "the engine's evidence score";
      return `the NLI verdict on the evidence is REFUTES, but the band follows ${by}, fitted on labelled Wikipedia citations; the NLI verdict (fitted on SciFact abstracts) decides the band only when the source states the conflict in so many words (another figure, the opposite change, a negation), and none was found here: read this source with care.`;
    };
  }
  if (band === 'not-supported' && supportLabel === 'SUPPORTS') {
    return (signal) => `the NLI verdict on the evidence is SUPPORTS, but the band follows the flag signal (${signal}), which is below the not-supported threshold, or a finding the source states.`;
  }
  return undefined;
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 3)}...` : s);

/** A source's evidence sentences, the most likely evidence first. */
const evidenceOf = (view: SourceView): SourceSentence[] => view.sentences.filter((s) => s.evidence).sort((a, b) => (b.score ?? 0) - (a.score ?? 0));

export function printCheck({ audit, band, view, provenance }: SourceCheck): void {
  const v = audit.verification;
  // One label, the band (the one decision, verify/decision.ts): the same as the audit, the web page and the gadget show.
  const disagreement = readingsDisagree(band.band, v?.supportLabel);
  // "could not check (language)": the claim or the source is not English (text/language.ts), said first.
  const cause = band.band === 'could-not-check' && audit.language && !audit.language.scoredAnyway ? ' (language)' : '';
  console.log(`${band.label}${cause}${audit.decision?.tag ? ' + tag' : ''}: ${audit.claim}`);
  if (audit.language?.scoredAnyway) console.log(`  language: ${audit.language.problem}; scored anyway (--any-language): read the band as a guess`);
  console.log(`  why: ${band.reason}${audit.decision?.tag ? '; a {{failed verification}} tag is proposed' : ''}`);
  if (band.howToCheck) console.log(`  to check it: ${band.howToCheck}`);
  if (disagreement) console.log(`  note: ${disagreement(provenance.flagging.signal, v!)}`);
  if (v?.probability !== undefined) {
    console.log(`  probability that the source supports the claim: ${v.probability.toFixed(3)} (0-1, calibrated on labelled Wikipedia citations)`);
  }
  if (v?.supportLabel) console.log(`  the NLI verdict on the source's evidence: ${v.supportLabel}${v.support !== undefined ? ` (P(supports) ${v.support.toFixed(3)})` : ''}`);
  // What the source states against the claim, in words (src/verify/findings).
  for (const f of v?.findings ?? []) console.log(`  finding: ${f.message}${f.decisive ? '' : ' (not decisive)'}`);
  // Needs review (src/verify/review.ts): the NLI verdict's P(right) is below the stated level.
  if (v?.review) console.log(`  NLI verdict NEEDS REVIEW (${v.review.reason}): ${v.review.message.replace(/^needs review: /, '')}`);
  // The reason of a flagged citation already says what the source leaves out.
  if (view.coverage && !(v?.coverage && band.reason.includes(coverageInWords(v.coverage)))) console.log(`  ${view.coverage.text}`);
  if (view.existing) {
    console.log(`  evidence in the source (${view.existing.title}; score: how likely the sentence is evidence for the claim, 0-1):`);
    for (const s of evidenceOf(view.existing).slice(0, 5)) console.log(`   ${(s.score ?? 0).toFixed(3)} s${s.index}: ${clip(s.text, 200)}`);
  }
  // Better sources from search (--suggest-from search): each with its URL, who found it and a ready citation.
  const searched = audit.recommendations?.search;
  for (const f of searched?.failures ?? []) console.log(`  ${f}`);
  if (view.suggestions.length) {
    const scale = view.scoreSignal === 'probability' ? 'probability of support' : `${view.scoreSignal} score`;
    console.log(`  better sources ${searched ? 'found by search' : 'in the index'} (${scale}):`);
    for (const s of view.suggestions) {
      const best = evidenceOf(s)[0];
      const rec = audit.recommendations?.suggestions.find((x) => x.docId === s.docId);
      console.log(`   ${s.score.toFixed(3)} ${s.title}${rec?.template && s.url ? ` <${s.url}>` : s.docId ? ` (${s.docId})` : ''}${best ? `: ${clip(best.text, 160)}` : ''}`);
      if (rec?.template) console.log(`         cite: ${rec.template}${rec.foundBy ? ` (found by ${rec.foundBy.provider} for "${rec.foundBy.query}")` : ''}`);
    }
  } else if (searched) {
    console.log(`  better sources: ${audit.recommendations?.noBetterSource ?? 'none found by search'}`);
  } else if (audit.verification) {
    // A candidate above the cited source but short of the supported band is named (audit.ts), not hidden.
    const closer = audit.recommendations?.noBetterSource?.includes('the closest') ? audit.recommendations.noBetterSource : undefined;
    console.log(`  better sources: ${!provenance.snapshot ? 'none looked for (no index)' : closer ?? (provenance.config.recommend.enabled ? 'none in the index scores above the cited source' : 'none looked for (--no-recommend)')}`);
  }
  const flagging = provenance.flagging;
  if (flagging.probabilityThreshold !== undefined) console.log(`  flagged as likely failing verification below a probability of support of ${flagging.probabilityThreshold.toFixed(2)} (the not-supported band), where the source states otherwise, or where the model reads a contradiction (needs review)${flagging.source ? `; probability calibrated by ${flagging.source}` : ''}`);
  else if (flagging.disabledReason) console.log(`  no flag threshold: ${flagging.disabledReason}`);
  const t = audit.timingsMs;
  console.log(`  provenance: ${provenance.snapshot ? snapshotText(provenance.snapshot) : 'no index'}, config ${provenance.configHash}, models ${provenance.models.map(modelLabel).join(', ')}; ${Math.round(t.source + t.retrieve + t.score + t.rank)} ms`);
}
