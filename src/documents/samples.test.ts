/**
 * The shipped sample documents (data/samples/documents: a Markdown report and an HTML blog post, 20+
 * citations each) audited end to end without the internet: their sources are recorded responses replayed
 * by a loopback server through the real, SSRF-guarded fetcher (test DNS answers loopback for the recorded
 * hosts and "no such host" for the others).
 *
 * Every citation must be found, with the claim written below (the whole sentence) and the status written
 * below. The expectations are written by hand from the documents and the source pages, not from output.
 *
 * Scorer: 'lexical' (content-word coverage) with its committed WiCE calibration
 * (models/calibration/wice-dev-lexical.json, threshold chosen by `veracite calibrate` on WiCE, not on these
 * samples). Why not the trained default: this test checks reading, resolving and status logic, which do not
 * depend on the scorer; the lexical scorer is deterministic, needs no model load (seconds of CPU on a
 * shared 2-core machine) and its calibration file is matched by the same scoring hash an audit uses. The
 * supporting sources repeat the claim's facts, and the failing ones share almost no content word with it,
 * so the two statuses do not sit near the threshold.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { CitationAuditor } from '../audit/audit.js';
import { findCalibration, flagRule, scoringHash } from '../audit/calibration.js';
import { LexicalPairScorer } from '../models/lexical-scorer.js';
import { DEFAULT_SCORING } from '../audit/score-document.js';
import type { AuditReport } from '../audit/types.js';
import { renderAuditHtml } from '../audit/report-html.js';
import { SourceResolver } from '../sources/resolve-source.js';
import { readRecordings, startReplayServer, type ReplayServer } from '../../test/fixtures/replay/replay-server.js';
import { loadDocumentInput } from './load-document.js';
import { citationStatus } from '../audit/citation-status.js';

const DIR = fileURLToPath(new URL('../../data/samples/documents/', import.meta.url));

type Status = 'supported' | 'fails-verification' | 'not-found' | 'dead-link' | 'unreadable' | 'unverifiable';
const S: Status = 'supported';
const F: Status = 'fails-verification';

const MARKDOWN: [string, Status][] = [
  ['Godrevy Lighthouse was built in 1859 on Godrevy Island in St Ives Bay.', S],
  ['The octagonal tower is 26 metres high and was designed by James Walker.', S],
  ['Its light was automated in 1939, when the keepers were withdrawn.', S],
  ['In 1995 the lantern was converted to solar power (Trinity House).', S],
  ["Longships Lighthouse stands on Carn Bras, the highest of the Longships rocks off Land's End.", S],
  ['A helipad was built on top of the Longships tower in 1974, and the light was automated in 1988.', S],
  ['The Lizard Lighthouse marks the most southerly point of mainland Britain, according to its heritage centre.', S],
  ['Its twin towers were built in 1751 by Thomas Fonnereau.', 'not-found'],
  ['First-order Fresnel lenses were installed in most Cornish lighthouses between 1860 and 1900.', S],
  // A host without a DNS record: offline looks the same, so it is "could not reach", never a dead link (issue 27).
  ['Pendeen Lighthouse was the last in Cornwall to lose its keepers, in 1995.', 'unverifiable'],
  ["The 1859 building committee's minutes record the cost of the Godrevy tower as £7,082.", 'unreadable'],
  ['Storm damage closed the Longships landing stage for two years after 2014.', 'dead-link'],
  ['Keepers on the Longships were relieved by boat every four weeks.', F],
  ['A record 121 grey seal pups were born at the Godrevy colony in the winter of 2022.', S],
  ['Pup production at Godrevy rose by a fifth between 2016 and 2021.', S],
  ['Grey seals can be detected in drone images with 94 percent precision.', S],
  ['Seal bite injuries among surfers in Cornwall are rare, with 11 cases recorded between 2010 and 2019.', S],
  ['Disturbance by walkers halved after the cliff path at Mutton Cove was fenced in 2018.', 'not-found'],
  ['Seals at Godrevy are most often seen at low tide on the beaches below the cliffs.', 'unverifiable'],
  ['The colony is monitored by volunteers of the Cornwall Seal Group.', S],
  ['Question: Pup coat; Finding: Pups are born with white fur and moult after three weeks.', F],
  ['Most pups at Godrevy are born between September and December.', 'dead-link'],
  ['The number of adult seals using the Godrevy haul-out exceeded 300 in 2021.', F],
  ['Drone surveys of the colony are flown only outside the pupping season.', F],
];

const HTML: [string, Status][] = [
  ['Godrevy Lighthouse was built in 1859 on Godrevy Island in St Ives Bay.', S],
  ['The octagonal tower is 26 metres high and was designed by James Walker.', S],
  ['Its light was automated in 1939, when the keepers were withdrawn.', S],
  ['In 1995 the lantern was converted to solar power.', S],
  ["Longships Lighthouse stands on Carn Bras, the highest of the Longships rocks off Land's End.", S],
  ['A helipad was built on top of the Longships tower in 1974.', S],
  ['The Lizard Lighthouse marks the most southerly point of mainland Britain.', S],
  ['Its twin towers were built in 1751 by Thomas Fonnereau.', 'not-found'],
  ['First-order Fresnel lenses were installed in most Cornish lighthouses between 1860 and 1900.', S],
  // A host without a DNS record: offline looks the same, so it is "could not reach", never a dead link (issue 27).
  ['Pendeen Lighthouse was the last in Cornwall to lose its keepers, in 1995.', 'unverifiable'],
  ["The 1859 building committee's minutes record the cost of the Godrevy tower as £7,082.", 'unreadable'],
  ['Storm damage closed the Longships landing stage for two years after 2014.', 'dead-link'],
  ['Keepers on the Longships were relieved by boat every four weeks.', F],
  ['A record 121 grey seal pups were born at the Godrevy colony in the winter of 2022.', S],
  ['Pup production at Godrevy rose by a fifth between 2016 and 2021.', S],
  ['Grey seals can be detected in drone images with 94 percent precision.', S],
  ['Seal bite injuries among surfers in Cornwall are rare, with 11 cases recorded between 2010 and 2019.', S],
  ['Disturbance by walkers halved after the cliff path at Mutton Cove was fenced in 2018.', 'not-found'],
  ['Seals at Godrevy are most often seen at low tide on the beaches below the cliffs.', 'unverifiable'],
  ['The colony is monitored by volunteers of the Cornwall Seal Group.', S],
  ['Pups are born with white fur and moult after three weeks.', F],
  ['Most pups at Godrevy are born between September and December.', 'dead-link'],
  ['Drone surveys of the colony are flown only outside the pupping season.', F],
];

describe('sample documents audited through replayed sources (lexical scorer, WiCE lexical calibration)', () => {
  let srv: ReplayServer;
  const reports = new Map<string, AuditReport>();
  before(async () => {
    srv = await startReplayServer(await readRecordings(DIR + 'sources'));
    const scorer = new LexicalPairScorer();
    const cal = await findCalibration(scoringHash(scorer.info, DEFAULT_SCORING, 'none'), undefined, false);
    assert.ok(cal, 'the committed lexical calibration (models/calibration/wice-dev-lexical.json) matches the default scoring');
    const flag = flagRule({ calibration: cal }, { scorer: scorer.info, scoring: DEFAULT_SCORING, queryContext: 'none' });
    assert.ok('threshold' in flag, 'reason' in flag ? flag.reason : '');
    for (const file of ['coast-report.md', 'coast-notes.html']) {
      const input = await loadDocumentInput(DIR + file);
      const resolver = new SourceResolver({ fetch: { policy: srv.fetchPolicy, route: srv.route, wayback: false } });
      const auditor = new CitationAuditor({ scorer, resolver, flag }, { recommend: { enabled: false, mode: 'auto', candidates: 0, passagesPerCandidate: 0, suggestions: 0, firstStageWeight: 0 } });
      reports.set(file, await auditor.auditArticle(input));
    }
  });
  after(() => srv.close());

  for (const [file, expected, kind] of [
    ['coast-report.md', MARKDOWN, 'markdown'],
    ['coast-notes.html', HTML, 'html'],
  ] as const) {
    it(`${file}: every citation found, with its whole-sentence claim and its status`, () => {
      const r = reports.get(file)!;
      assert.equal(r.article.kind, kind);
      assert.ok(expected.length >= 20);
      const got = r.citations.map((c) => [c.claim, citationStatus(c).status]);
      assert.deepEqual(got, expected);
    });
  }

  it('the two non-existent DOIs are "cited work not found", distinct from dead links and unsupported claims', () => {
    for (const r of reports.values()) {
      const missing = r.citations.filter((c) => citationStatus(c).status === 'not-found');
      assert.equal(missing.length, 2);
      for (const c of missing) {
        assert.equal(c.source.workNotFound, true);
        assert.match(c.source.reason!, /^cited work not found: doi\.org has no DOI 10\.5555\/(fake\.2020\.001|nonexistent\.99)/);
        assert.equal(c.verification, undefined);
      }
      const pendeen = r.citations.find((c) => c.claim.startsWith('Pendeen Lighthouse'))!;
      assert.match(citationStatus(pendeen).reason, /^could not reach oldsite\.example/, 'no DNS answer is reported as could not reach, not as a dead link');
      // The DOI whose publisher page is gone is a dead link, not a missing work.
      const moved = r.citations.find((c) => c.claim.startsWith('Most pups at Godrevy'))!;
      assert.equal(moved.source.status, 'dead');
    }
  });

  it('evidence from the PDF source says its page; the scan is unreadable, never scored', () => {
    for (const r of reports.values()) {
      const pup = r.citations.find((c) => c.claim.startsWith('Pup production at Godrevy'))!;
      assert.equal(pup.verification!.evidence[0]!.page, 2);
      assert.match(pup.verification!.evidence[0]!.text, /^Pup production at Godrevy rose by a fifth/);
      const scan = r.citations.find((c) => citationStatus(c).status === 'unreadable')!;
      assert.equal(scan.source.status, 'unreadable');
      assert.equal(scan.verification, undefined);
    }
  });

  it('navigation, sidebar and footer links of the HTML page are not citations; the HTML report shows kind, status and page', () => {
    const r = reports.get('coast-notes.html')!;
    for (const c of r.citations) assert.doesNotMatch(c.source.url ?? '', /blog\.example\/(about|archive|puffins|privacy)|^https:\/\/blog\.example\/$/);
    const html = renderAuditHtml(r);
    assert.match(html, /\(html\)/);
    assert.match(html, /likely fails verification/);
    assert.match(html, /dead link/);
    assert.match(html, /p\. 2/);
    assert.equal(r.citations.filter((c) => citationStatus(c).status === 'supported').length, HTML.filter(([, s]) => s === S).length);
  });
});
