/**
 * `veracite verify "claim"` or `veracite verify --claims file.jsonl --out results.jsonl`:
 * verdict, confidence, top-5 evidence, candidate documents and provenance. Batch mode appends one JSON
 * line per claim and resumes where an interrupted run stopped (claims already in --out are skipped;
 * a half-written last line is dropped).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import type { Label, Verdict } from '../verify/types.js';
import { ClaimsTally, goldLabelOf, summaryLines } from './claims-summary.js';
import { claimTerms, verifyEvidenceRoles, verifyRelevanceThreshold, type VerdictDisplayConfig } from '../highlight/evidence-role.js';
import { evidenceSentenceText, roleLegendText, useColor } from '../highlight/render.js';
import { findingLines } from '../verify/findings/findings.js';
import { labelAgainstBand } from '../verify/verdict-band.js';
import { readJsonlObjects } from './jsonl-objects.js';
import { snapshotText } from './format.js';
import { withApp } from './open-app.js';
import { addOptions, type OptionPick } from './options.js';
import { createProgress } from './progress.js';
import { assertText } from '../util/not-text.js';
import { checkedClaim, ClaimTextError } from '../verify/claim-text.js';
import { isSearchVerdict, SEARCH_OPTIONS, searchLines } from './search-output.js';
import { BadDataError, UsageError } from '../util/exit-codes.js';
import { checkInputFile } from './input-file.js';
import { admitConfig, checkResumable, completedRecords, sayOnInterrupt, storedConfigs, type DoneRecord } from './batch-resume.js';
import { verdictLabel } from '../eval/label-aliases.js';

/** The options of every command that verifies claims (verify, eval scifact / fever, tune-verdict, serve). */
export const VERIFY_OPTIONS: OptionPick = { index: ['index'], models: ['embedder', 'scorer', 'nli', 'device', 'profile', 'judge', 'maxCalls'], retrieval: true, verify: true };

export function printVerdict(v: Verdict, opts: { color?: boolean } = {}): void {
  const color = opts.color ?? useColor();
  // The roles follow the verdict's own reading: its relevance gate and (columbia) its thresholds.
  const verdictConfig = (v.provenance.config as { verdict?: VerdictDisplayConfig }).verdict ?? {};
  const terms = claimTerms(v.claim);
  // Not English (text/language.ts): said first; the label that follows is the models' guess.
  if (v.language) console.log(`could not check (language): ${v.claim}\n  why: ${v.language.problem}; the label below reads it as English anyway: a guess`);
  console.log(`${v.label} (confidence ${v.confidence.toFixed(2)}, the calibrated probability of this label): ${v.claim}`);
  // The label is the most probable class, or the output says why not (issue 36).
  const top = (Object.entries(v.probs) as [Label, number][]).reduce((a, b) => (b[1] > a[1] ? b : a));
  if (top[0] !== v.label && !v.overruled) console.log(`  not the most probable class (${top[0]} ${top[1].toFixed(2)}): the verdict rule decides on the deciding document's evidence, its relevance gate and thresholds, not on the highest probability alone`);
  console.log(`  evidence (score: how likely the sentence is evidence for the claim, 0-1):`);
  // Marks only where the verdict used the sentence and in the direction it read (the deciding document).
  const roles = verifyEvidenceRoles(v.evidence, verdictConfig, { label: v.label, ...(v.decidedBy ? { docId: v.decidedBy.docId } : {}) });
  v.evidence.forEach((e, i) => {
    // A sentence found by search names its page (the URL to read it at), an index's its document id.
    console.log(`   ${e.score.toFixed(3)} ${e.title} (${e.url ?? e.docId}) s${e.sentenceIndex}: ${evidenceSentenceText(e.text, terms, roles[i], { color })}`);
    // What the sentence states against the claim, in words (src/verify/findings).
    for (const line of findingLines(e.findings ?? [])) console.log(`         finding: ${line}`);
  });
  if (v.evidence.length === 0) console.log('   (none found)');
  else {
    const legend = roleLegendText(roles, { color, relevance: verifyRelevanceThreshold(verdictConfig) });
    if (legend) console.log(legend.split('\n').map((l) => `   ${l}`).join('\n'));
  }
  // The one decision for each evidence document (verify/decision.ts), as `check` gives it for the same pair.
  if (v.documentDecisions) {
    const decided = new Set(v.documentDecisions.map((d) => d.docId));
    const others = new Set(v.evidence.map((e) => e.docId).filter((id) => !decided.has(id))).size;
    if (v.documentDecisions.length) console.log('  each document, decided as `veracite check` decides the same pair (band, probability of support, why):');
    for (const d of v.documentDecisions) {
      console.log(`   ${d.decision.label}${d.decision.probability !== undefined ? ` ${d.decision.probability.toFixed(2)}` : ''}: ${d.title} (${d.url ?? d.docId})`);
      console.log(`         ${d.decision.reason}`);
    }
    const why = labelAgainstBand(v);
    if (why) console.log(`  ${why}`);
    if (others) console.log(`   (${others} other evidence document${others > 1 ? 's' : ''} not decided: below the relevance gate, where the verdict takes no side, or past the first three; \`veracite check\` decides any pair)`);
  }
  if (v.decidedBy) {
    console.log(`  decided on: ${v.decidedBy.title} (${v.decidedBy.url ?? v.decidedBy.docId}); each document's evidence is judged alone, and the most relevant document that takes a side decides`);
    if (v.decidedBy.coverage) console.log(`  that document ${v.decidedBy.coverage.text}${v.decidedBy.coverage.missing.length ? ': read the verdict with care' : ''}`);
  }
  if (v.overruled) {
    const o = v.overruled;
    console.log(`  decided by a finding: ${o.finding.message} (${o.finding.docId}${o.finding.sentenceIndex >= 0 ? ` s${o.finding.sentenceIndex}` : ''}); the model alone read ${o.label} (${o.probs[o.label].toFixed(2)}), but a source that states this, unambiguously, refutes the claim`);
  }
  if (v.opposite) {
    const o = v.opposite;
    // A rewrite that reads badly ("bleomycin-did not induce", "more unsusceptible") is left to --json.
    const what = o.readsAsSentence === false ? ' (rewrite not shown: it does not read as a sentence; see --json):' : `: "${o.text}"`;
    console.log(`  read against its opposite${what} entailment ${o.entailment.toFixed(2)}, the claim ${o.claimEntailment.toFixed(2)}${o.entailment > o.claimEntailment ? ' (the evidence favours the opposite)' : ''}`);
  }
  // Needs review (src/verify/review.ts) and what the engine cannot do (src/verify/engine-notes.ts).
  if (v.review) console.log(`  NEEDS REVIEW (${v.review.reason}): ${v.review.message.replace(/^needs review: /, '')}`);
  if (v.engine?.offline) for (const w of v.engine.weakSpots) console.log(`  lite engine (${v.engine.name}), ${w.message}`);
  console.log(`  documents: ${v.documents.map((d) => `${d.title} (${d.url ?? d.docId}; ${d.via.join('+')})`).slice(0, 5).join('; ')}`);
  if (isSearchVerdict(v)) for (const line of searchLines(v)) console.log(line);
  console.log(`  provenance: ${snapshotText(v.provenance.snapshot)}, config ${v.provenance.configHash}, models ${v.provenance.models.map((m) => m.id).join(', ')}`);
  console.log(`  ${v.timings.totalMs!.toFixed(0)} ms`);
}

interface ClaimLine {
  id: string;
  /** Where it was read (`file:line`), for errors. */
  where: string;
  claim: string;
  /** The line's gold label (a `label` field, or SciFact's `evidence`), for the summary's agreement. */
  gold?: Label;
}

/** Reads standard input to its end, as bytes (a source given as `--source -` may be a PDF). */
export async function readStdinBytes(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Reads standard input to its end (a claim given as `veracite verify -`); binary data is a NotTextError. */
export async function readStdin(): Promise<string> {
  const bytes = await readStdinBytes();
  assertText(bytes, 'stdin');
  return bytes.toString('utf8');
}

/** `path` '-' reads the claims from standard input. A bad claim names its file, line and field. */
export async function* readClaims(path: string): AsyncGenerator<ClaimLine> {
  const where = path === '-' ? 'stdin' : path;
  for await (const { line, fields: v } of readJsonlObjects(path)) {
    const field = v.claim !== undefined ? 'claim' : v.text !== undefined ? 'text' : v.input !== undefined ? 'input' : 'claim';
    if (v[field] === undefined) throw new ClaimTextError('missing: each line needs the claim to verify', `${where}:${line} field "claim"`);
    const gold = goldLabelOf(v);
    yield { id: String(v.id ?? v._id ?? line), where: `${where}:${line}`, claim: checkedClaim(v[field], `${where}:${line} field "${field}"`), ...(gold ? { gold } : {}) };
  }
}

export function registerVerifyCommand(program: Command): void {
  addOptions(
    program
      .command('verify')
      .description('verify a claim (or a JSONL file of claims) against an index, or against what search finds (--search: no index needed)')
      .argument('[claim]', "the claim to verify; '-' reads it from stdin (for long claims)")
      .option('--claims <file>', "batch mode: JSONL with \"claim\" (and \"id\"); '-' reads stdin")
      .option('--out <file>', 'batch mode: JSONL output, resumed if it exists', 'verdicts.jsonl')
      .option('--json', 'JSON output (single claim)')
      .option('--quiet', 'no progress output'),
    { ...VERIFY_OPTIONS, ...SEARCH_OPTIONS },
  ).action(async (claim: string | undefined, flags: { claims?: string; out: string; json?: boolean; quiet?: boolean } & Record<string, unknown>) => {
    if (claim === undefined && !flags.claims) throw new UsageError('give a claim, or --claims <file.jsonl>');
    if (claim === '-' && flags.claims === '-') throw new UsageError("stdin can carry the claim or the claims file, not both");
    // Read and checked before any model loads: a claim that is not there, or cannot be one, fails fast.
    const text = claim === undefined ? undefined : checkedClaim(claim === '-' ? await readStdin() : claim, claim === '-' ? 'stdin' : undefined);
    if (flags.claims) await checkInputFile(flags.claims, '--claims', 'one JSON object a line with its "claim", e.g. data/samples/scifact/claims_dev.jsonl');
    // A batch is read and checked whole before any model loads: a bad line, one id on two lines, or an --out
    // written from another claims file fails in a second, not after hours of the lines before it.
    const claims: ClaimLine[] = [];
    let done = new Map<string, DoneRecord>();
    if (flags.claims) {
      for await (const c of readClaims(flags.claims)) claims.push(c);
      if (claims.length === 0) throw new BadDataError(`${flags.claims === '-' ? 'stdin' : flags.claims}: no claims (one JSON object a line with its "claim")`);
      done = await completedRecords(flags.out);
      checkResumable(claims, done, flags.out);
    }
    // Search needs no index: without --index, none is opened (the default index is not required).
    const searching = flags.search !== undefined;
    // A claims file is a batch run: MediaWiki is sent maxlag=5 (its etiquette for clients nobody waits on).
    const base = { ...(searching && flags.index === undefined ? { index: { dir: null } } : {}), ...(flags.claims ? { search: { batch: true } } : {}) };
    await withApp(flags, { ...VERIFY_OPTIONS, ...SEARCH_OPTIONS }, async (vc) => {
      const index = searching ? undefined : await vc.verifier();
      // Each evidence document decided as `check` decides the same pair (issue 36: one decision everywhere).
      const verifier = index ? { verify: async (c: string) => vc.decideDocuments(await index.verify(c)) } : { verify: (c: string) => vc.verifyBySearch(c) };
      if (text) {
        const v = await verifier.verify(text);
        if (flags.json) console.log(JSON.stringify(v, null, 2));
        else printVerdict(v);
        return;
      }
      await mkdir(dirname(flags.out), { recursive: true });
      const configs = storedConfigs(done);
      const bar = createProgress('verify', claims.length, 'claims', { quiet: flags.quiet });
      let n = 0;
      const tally = new ClaimsTally();
      const started = performance.now();
      const stopSaying = sayOnInterrupt(flags.out, () => `${n} of ${claims.length} claims`);
      try {
        for (const c of claims) {
          n++;
          const before = done.get(c.id);
          if (before) {
            // Counted in the summary as its stored verdict, so a resumed run's agreement is the whole file's.
            tally.addEarlier(verdictLabel(before.label), c.gold);
            bar.update(n);
            continue;
          }
          const v = await verifier.verify(c.claim);
          admitConfig(configs, v.provenance.configHash, flags.out);
          await appendFile(flags.out, `${JSON.stringify({ id: c.id, ...v })}\n`);
          tally.add(v.label, c.gold);
          bar.update(n);
        }
      } finally {
        stopSaying();
        bar.stop();
      }
      // Counts per label, agreement with the file's gold labels (when it has them) and throughput.
      for (const line of summaryLines(tally.summary((performance.now() - started) / 1000), flags.out)) console.error(line);
    }, { base });
  });
}
