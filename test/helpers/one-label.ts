/**
 * One label per citation (issue 46 item 1): every surface shows the band, and the same band for each citation.
 * Given what one `veracite audit ... --all --out audit.json --html audit.html` run produced (its stdout, the
 * JSON and the HTML report), checks:
 *   - audit JSON: no `status` verdict beside the band, and every field named `label` in a citation (the band's,
 *     the decision's) is the band's words; the decision's band is the band;
 *   - summary tally: `byBand` counts the citations' bands; `flagged` counts only not-supported and needs-review;
 *   - CLI: the "bands:" tally is byBand, and each listed citation (--all: every scored one) shows its band;
 *   - HTML report: each citation's section carries its band (data-band and words);
 *   - web page and gadget: their own code (src/web, src/wiki-gadget), run on the citation views the server
 *     sends (audit/citation-view.ts), names the same band.
 * It asserts agreement between surfaces, not band values: the engine decides those.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { BAND_LABELS } from '../../src/audit/bands.js';
import { citationView } from '../../src/audit/citation-view.js';
import type { AuditReport, CitationAudit, CitationBand } from '../../src/audit/types.js';
import type { ResolvedSource } from '../../src/sources/types.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every value of a field named `label` inside `o`, with its path. */
function labelFields(o: unknown, path = ''): { path: string; value: unknown }[] {
  if (Array.isArray(o)) return o.flatMap((x, i) => labelFields(x, `${path}[${i}]`));
  if (!o || typeof o !== 'object') return [];
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => [...(k === 'label' ? [{ path: `${path}.${k}`, value: v }] : []), ...labelFields(v, `${path}.${k}`)]);
}

interface GadgetLogic {
  BANDS: Record<string, { label: string }>;
  bandOf(view: unknown): string;
}

/** The gadget's logic, loaded as the browser loads the script (it exposes window.veraciteGadget.logic). */
async function gadgetLogic(root = ROOT): Promise<GadgetLogic> {
  const sandbox: { window: { veraciteGadget?: { logic: GadgetLogic } } } = { window: {} };
  runInNewContext(await readFile(join(root, 'src', 'wiki-gadget', 'veracite-gadget.js'), 'utf8'), sandbox);
  return sandbox.window.veraciteGadget!.logic;
}

/** `root`: the checkout whose web page and gadget code is read (a clone in the newcomer test). */
export async function assertOneLabel(report: AuditReport, stdout: string, html: string, root = ROOT): Promise<void> {
  const bandOf = (c: CitationAudit): CitationBand => {
    assert.ok(c.band, `#${c.index + 1} has a band`);
    return c.band.band;
  };
  // Audit JSON.
  for (const c of report.citations) {
    const n = `#${c.index + 1}`;
    const band = bandOf(c);
    assert.equal((c as { status?: unknown }).status, undefined, `${n}: no second verdict ("status") beside the band`);
    for (const f of labelFields(c)) assert.equal(f.value, BAND_LABELS[band], `${n}${f.path} is the band's words`);
    if (c.decision) assert.equal(c.decision.band, band, `${n}: the decision's band is the band`);
    if (c.verification?.flagged) assert.ok(band === 'not-supported' || band === 'needs-review', `${n}: flagged, banded ${band}`);
  }
  assert.equal((report.summary as { byCitationStatus?: unknown }).byCitationStatus, undefined, 'no tally of a second verdict');
  // Summary tally.
  const tally: Partial<Record<CitationBand, number>> = {};
  for (const c of report.citations) tally[bandOf(c)] = (tally[bandOf(c)] ?? 0) + 1;
  assert.deepEqual(report.summary.byBand, tally, 'byBand counts the bands');
  // CLI: the tally line and one line per scored citation (--all), each with its band.
  const bandsLine = /^ {2}bands: (.*)$/m.exec(stdout);
  assert.ok(bandsLine, stdout);
  assert.equal(bandsLine[1], Object.entries(report.summary.byBand!).map(([k, v]) => `${BAND_LABELS[k as CitationBand]} ${v}`).join(', '));
  const listed = new Map([...stdout.matchAll(/^ {2}#(\d+)\s+\d+\.\d+\s{2}(supported|partly supported|needs review|not supported)( \+ tag)?\s/gm)].map((m) => [Number(m[1]), m[2]]));
  const scored = report.citations.filter((c) => c.verification);
  assert.equal(listed.size, scored.length, '--all lists every scored citation');
  for (const c of scored) assert.equal(listed.get(c.index + 1), BAND_LABELS[bandOf(c)], `CLI #${c.index + 1}`);
  // HTML report: the citation's section and its band pill.
  for (const c of report.citations) {
    const at = html.indexOf(`id="c${c.index}"`);
    assert.ok(at >= 0, `HTML has #${c.index + 1}`);
    const section = html.slice(at, html.indexOf('</section>', at));
    const pill = /<span class="pill band [^"]*" data-band="([^"]+)"[^>]*>([^<]+)<\/span>/.exec(section);
    assert.ok(pill, `HTML #${c.index + 1} shows a band`);
    assert.deepEqual([pill[1], pill[2]], [bandOf(c), BAND_LABELS[bandOf(c)]], `HTML #${c.index + 1}`);
  }
  // Web page and gadget: their code on the views the server sends for these citations.
  const web = (await import(join(root, 'src', 'web', 'check-source.js'))) as { checkStatus(v: unknown): { key: string; label: string } };
  const gadget = await gadgetLogic(root);
  const signal = report.provenance.flagging.signal ?? 'engine';
  for (const c of report.citations) {
    const resolved = { status: c.source.status, attempts: [] } as unknown as ResolvedSource;
    const view = citationView(c.source as never, resolved, c, signal, new Map());
    const band = bandOf(c);
    assert.equal(view.band, band, `view #${c.index + 1}`);
    const shown = web.checkStatus(view);
    assert.equal(shown.key, band, `web page #${c.index + 1}`);
    assert.equal(shown.label.replace(/ \+ tag$/, '').replace(/ \(language\)$/, ''), BAND_LABELS[band], `web page #${c.index + 1}`);
    const g = gadget.bandOf(view);
    assert.equal(gadget.BANDS[g]!.label, BAND_LABELS[band], `gadget #${c.index + 1}`);
  }
}
