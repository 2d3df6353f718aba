/**
 * A claim that is not English is said to be so, not read as English (issue 46 item 3): `veracite check` as its
 * own process, the API's citation check (the view's `language` and band), and the web page's and the gadget's
 * code on that view. With --any-language the pair is scored, and the output says it is a guess.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { CitationViewSchema } from '../src/audit/citation-view.js';
import { VerdictResponse } from '../src/server/schemas.js';
import type { RunningServer } from '../src/server/start.js';
import { fakeModels } from '../src/server/testing/fake-models.js';
import { makeTestIndex, postJson, startTestServer, type TestIndex } from '../src/server/testing/harness.js';
import { cliEntryArgs } from '../src/cli/testing/cli-entry.js';

const ROOT = join(import.meta.dirname, '..');
const FRENCH = 'La carence en vitamine D augmente le risque de fractures.';
const ENGLISH = 'Vitamin D deficiency increases the risk of fractures.';
const SOURCE_TEXT = 'Vitamin D deficiency is common in older adults. In a cohort of 2,000 women, low vitamin D levels were associated with an increased risk of hip fractures. Supplementation reduced the risk of falls.';

function veracite(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliEntryArgs(), ...args], { cwd: ROOT, timeout: 180_000 }, (e, out, err) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }));
  });
}

describe('language: a French claim is reported as not English', () => {
  let ix: TestIndex;
  let server: RunningServer;
  before(async () => {
    ix = await makeTestIndex('veracite-language-');
    server = await startTestServer(ix.index, fakeModels());
  });
  after(async () => {
    await server?.close();
    await ix?.cleanup();
  });

  it('CLI check: "could not check (language)", what to do, exit 0; --any-language scores it and says so', async () => {
    const source = join(ROOT, 'data', 'samples', 'audit', 'sources', 'scifact-13519661.txt');
    const [fr, anyway] = await Promise.all([
      veracite(['check', FRENCH, '--source', source, '--no-index', '--scorer', 'lexical']),
      veracite(['check', FRENCH, '--source', source, '--no-index', '--scorer', 'lexical', '--any-language']),
    ]);
    assert.equal(fr.code, 0, fr.err);
    assert.match(fr.out, /^could not check \(language\): La carence en vitamine D/m);
    assert.match(fr.out, /^ {2}why: language: the claim reads as French; the models and the index read English only$/m);
    assert.match(fr.out, /--any-language to score it anyway/);
    assert.equal(anyway.code, 0, anyway.err);
    assert.doesNotMatch(anyway.out, /^could not check/m);
    assert.match(anyway.out, /^ {2}language: the claim reads as French; .*scored anyway \(--any-language\)/m);
  });

  it('API citation check and verify: the language named (band could-not-check; a verdict deciding no document); the web page and the gadget say so', async () => {
    const post = async (claim: string) => CitationViewSchema.parse(await (await postJson(`${server.url}/v1/citations/check`, { claim, source: { text: SOURCE_TEXT }, suggestions: 0 })).json());
    const fr = await post(FRENCH);
    assert.equal(fr.band, 'could-not-check');
    assert.equal(fr.language?.claim.language, 'fra');
    assert.equal(fr.language?.claim.english, false);
    assert.match(fr.bandReason ?? '', /^language: the claim reads as French/);
    assert.equal(fr.verifiability, null, 'not scored');
    const en = await post(ENGLISH);
    assert.equal(en.language, undefined);
    assert.notEqual(en.band, 'could-not-check');
    // POST /v1/verify: the verdict names the language and decides no document.
    const verdict = VerdictResponse.parse(await (await postJson(`${server.url}/v1/verify`, { claim: FRENCH })).json());
    assert.equal(verdict.language?.claim.language, 'fra');
    assert.match(verdict.language?.problem ?? '', /^the claim reads as French/);
    assert.deepEqual(verdict.documentDecisions, []);
    assert.equal(VerdictResponse.parse(await (await postJson(`${server.url}/v1/verify`, { claim: ENGLISH })).json()).language, undefined);
    // The web page's check and the gadget, on the view the server sent.
    const web = (await import(join(ROOT, 'src', 'web', 'check-source.js'))) as { checkStatus(v: unknown): { key: string; label: string; why: string } };
    const shown = web.checkStatus(fr);
    assert.equal(shown.label, 'could not check (language)');
    assert.match(shown.why, /the claim reads as French; the models and the index read English only/);
    const sandbox: { window: { veraciteGadget?: { logic: { bandOf(v: unknown): string; BANDS: Record<string, { label: string }> } } } } = { window: {} };
    runInNewContext(await readFile(join(ROOT, 'src', 'wiki-gadget', 'veracite-gadget.js'), 'utf8'), sandbox);
    assert.equal(sandbox.window.veraciteGadget!.logic.bandOf(fr), 'could-not-check');
  });
});
