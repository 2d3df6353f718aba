/**
 * `veracite check --pairs pairs.jsonl --out checks.jsonl`: many (claim, source) pairs, each checked as the
 * audit checks a citation. For a fact-checker's list of statements and the pages cited for them, or a
 * researcher's own labelled pairs. One output line per pair, appended as it is done; an interrupted run
 * resumes (pairs whose id and claim are in --out are skipped, a half-written last line is dropped; see
 * batch-resume.ts). A bad line (its JSON or claim) is refused before any model loads; a source that cannot be
 * read stops the run with its file, line and field, and everything checked before it stays in --out.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { contextSentences, sectionPathOf, type SourceCheck, type SourceCheckInput } from '../app/check-source.js';
import { SettingsError } from '../util/settings-error.js';
import { assertText, NotTextError } from '../util/not-text.js';
import { checkedClaim, ClaimTextError } from '../verify/claim-text.js';
import { AUDIT_OPTIONS } from './command-audit.js';
import { admitConfig, checkResumable, completedRecords, sayOnInterrupt, storedConfigs } from './batch-resume.js';
import { withApp } from './open-app.js';
import { createProgress } from './progress.js';
import { readJsonlObjects } from './jsonl-objects.js';
import { readSourceArgument } from './source-argument.js';
import { BadDataError, EXIT, ExitError, ownExitCode } from '../util/exit-codes.js';
import { checkInputFile } from './input-file.js';

type Fields = Record<string, unknown>;

function optionalText(v: Fields, field: string, where: string): string | undefined {
  const x = v[field];
  if (x === undefined || x === null) return undefined;
  if (typeof x !== 'string') throw new BadDataError(`${where} field "${field}": expected a string, got ${Array.isArray(x) ? 'an array' : typeof x}`);
  return x;
}

/** One record of a pairs file -> the check's input; paths are relative to the pairs file. */
/** A record's claim, checked; `where` is `file:line`. */
function claimOf(v: Fields, where: string): string {
  if (v.claim === undefined || v.claim === null) throw new ClaimTextError('missing: each line needs the claim to check', `${where} field "claim"`);
  return checkedClaim(v.claim, `${where} field "claim"`);
}

export async function pairOf(v: Fields, file: string, line: number): Promise<Omit<SourceCheckInput, 'suggestions'>> {
  const where = `${file}:${line}`;
  const claim = claimOf(v, where);
  const source = optionalText(v, 'source', where);
  const text = optionalText(v, 'text', where);
  if ((source === undefined) === (text === undefined)) throw new BadDataError(`${where}: give exactly one of "source" (a saved page's path or a URL) and "text" (the source's text)`);
  const title = optionalText(v, 'source_title', where);
  let read: SourceCheckInput['source'];
  if (text !== undefined) {
    assertText(text, `${where} field "text"`);
    read = { text, ...(title ? { title } : {}) };
  }
  else {
    const path = /^https?:\/\//i.test(source!) || isAbsolute(source!) ? source! : join(dirname(file), source!);
    try {
      read = await readSourceArgument(path, title);
    } catch (e) {
      if (e instanceof NotTextError) throw new NotTextError(`${where} field "source": ${e.what}`, e.why);
      throw new ExitError(`${where} field "source": ${e instanceof SettingsError ? e.message.replace(/^[^:]*: /, '') : (e as Error).message}`, ownExitCode(e) ?? EXIT.DATA);
    }
  }
  const context = v.context;
  if (context !== undefined && typeof context !== 'string' && !(Array.isArray(context) && context.every((c) => typeof c === 'string'))) {
    throw new BadDataError(`${where} field "context": expected the text before the claim, or its sentences`);
  }
  const articleTitle = optionalText(v, 'title', where);
  return {
    claim,
    source: read,
    context: contextSentences(context as string | string[] | undefined),
    ...(articleTitle ? { title: articleTitle } : {}),
    sectionPath: sectionPathOf(optionalText(v, 'section', where)),
  };
}

/** What one output line records: the answer people read, and what produced it. */
export function checkRecord(id: string, r: SourceCheck): Record<string, unknown> {
  const v = r.audit.verification;
  return {
    id,
    claim: r.audit.claim,
    // The one label (audit/bands.ts): the band, as the audit, the web page and the gadget show it.
    band: r.band.band,
    label: r.band.label,
    reason: r.band.reason,
    probability: v?.probability ?? null,
    // The one decision (verify/decision.ts): the band, number, reason and tag every surface shows for this pair.
    decision: r.audit.decision ?? null,
    flagged: v?.flagged ?? false,
    supportLabel: v?.supportLabel ?? null,
    support: v?.support ?? null,
    // What the source states against the claim, in words (src/verify/findings).
    findings: v?.findings ?? [],
    // Needs review (src/verify/review.ts): the NLI verdict's P(right) is below the stated level, with the reason.
    review: v?.review ?? null,
    sourceStatus: r.audit.source.status,
    evidence: (v?.evidence ?? []).map((e) => ({ sentenceIndex: e.sentenceIndex, score: e.score, text: e.text })),
    suggestions: r.view.suggestions.map((s) => ({ docId: s.docId, title: s.title, score: s.score })),
    provenance: { snapshot: r.provenance.snapshot ?? null, configHash: r.provenance.configHash, models: r.provenance.models.map((m) => m.id), flagging: r.provenance.flagging },
  };
}

export async function checkPairs(flags: Record<string, unknown> & { pairs?: string; out: string; quiet?: boolean }): Promise<void> {
  const file = flags.pairs!;
  await checkInputFile(file, '--pairs', 'one JSON object a line: {"id", "claim", "source" or "text"}');
  // The whole file is read first (its JSON, ids and claims; the sources are read pair by pair): a bad line,
  // one id on two lines or an --out written from another pairs file fails before any model loads.
  const records: { line: number; fields: Fields; id: string; claim: string; where: string }[] = [];
  for await (const rec of readJsonlObjects(file)) {
    const where = `${file}:${rec.line}`;
    records.push({ ...rec, where, id: String(rec.fields.id ?? rec.line), claim: claimOf(rec.fields, where) });
  }
  const done = await completedRecords(flags.out);
  checkResumable(records, done, flags.out);
  await mkdir(dirname(flags.out), { recursive: true });
  const total = records.length;
  await withApp(flags, AUDIT_OPTIONS, async (vc) => {
    const pipeline = await vc.auditPipeline();
    if (!flags.quiet) for (const note of pipeline.notes) console.error(`note: ${note}`);
    const bar = createProgress('check', total, 'pairs', { quiet: flags.quiet });
    const configs = storedConfigs(done);
    let n = 0;
    let written = 0;
    // Pairs the LLM judge could not answer for (its reply unreadable): needs review, counted in the summary line.
    let judgeUnreadable = 0;
    const stopSaying = sayOnInterrupt(flags.out, () => `${n} of ${total} pairs`);
    try {
      for (const rec of records) {
        n++;
        if (!done.has(rec.id)) {
          const input = await pairOf(rec.fields, file, rec.line);
          const checked = await vc.check(input);
          if (checked.audit.verification?.review?.reason === 'judge') judgeUnreadable++;
          admitConfig(configs, checked.provenance.configHash, flags.out);
          await appendFile(flags.out, `${JSON.stringify(checkRecord(rec.id, checked))}\n`);
          written++;
        }
        bar.update(n);
      }
    } finally {
      stopSaying();
      bar.stop();
    }
    console.error(`checked ${written} pairs (${n - written} already in ${flags.out}) -> ${flags.out}${judgeUnreadable ? `; the judge could not answer for ${judgeUnreadable} of them (needs review)` : ''}`);
  });
}
