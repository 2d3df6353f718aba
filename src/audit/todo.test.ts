/** The worklist of flagged citations (issue 31): CSV a spreadsheet opens safely, wikitext whose tags stay whole. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { csvField, todoCsv, todoItems, todoWikitext, type TodoItem } from './todo.js';
import type { CitationAudit } from './types.js';

const item = (over: Partial<TodoItem> = {}): TodoItem => ({ number: 3, section: 'History', claim: 'It opened in 1901.', score: 0.05, band: 'not supported', reason: 'probability of support 0.05 (below 0.15)', sourceTitle: 'A page', sourceUrl: 'https://example.org/a', suggestion: '', tag: true, ...over });

describe('to-do export', () => {
  it('CSV: quoted when needed, formulas defused, numbered as in the article', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a, "b"'), '"a, ""b"""');
    assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvField(0.04912), '0.049');
    assert.equal(csvField(undefined), '');
    const csv = todoCsv([item(), item({ number: 12, claim: 'Two\nlines' })]);
    const lines = csv.split('\r\n');
    assert.equal(lines[0], 'citation,section,claim,probability of support,band,why,cited source,cited URL,suggested source,done');
    assert.match(lines[1]!, /^#3,History,It opened in 1901\.,0\.050,not supported,probability of support 0\.05 \(below 0\.15\),A page,https:\/\/example\.org\/a,,$/);
    assert.match(csv, /\r\n#12,History,"Two\nlines",/);
  });

  it('wikitext: one list item per citation, the claim as written and a dated {{failed verification}} that no pipe or brace can break', () => {
    const text = todoWikitext([item(), item({ number: 7, claim: 'Uses [[links]] and {{templates}}', reason: 'a | b }} c' })], { title: 'Bodmin', date: new Date('2025-11-03T00:00:00Z') });
    const lines = text.trimEnd().split('\n');
    assert.match(lines[0]!, /^<!-- veracite audit of "Bodmin", 2025-11-03: 2 citations likely failing verification, 2 with a proposed tag/);
    assert.equal(lines[1], '* #3 (History): It opened in 1901.{{failed verification|date=November 2025|reason=veracite: probability of support 0.05 (below 0.15)}}');
    assert.equal(lines[2], '* #7 (History): <nowiki>Uses [[links]] and {{templates}}</nowiki>{{failed verification|date=November 2025|reason=veracite: a {{!}} b &#125;&#125; c}}');
  });

  it('wikitext: no title closes the opening comment, and a claim with a behaviour switch or a bare URL is pasted inert', () => {
    const text = todoWikitext([item({ claim: 'The mayor resigned __NOINDEX__ __NOTOC__ see https://evil.example/phish' })], { title: 'Blog ---> {{Db-spam}} [[Category:Hoaxes]] --!> -->', date: new Date('2025-11-03T00:00:00Z') });
    const [head, line] = text.trimEnd().split('\n');
    // The comment ends once, at its own end: nothing of the title is live wikitext.
    assert.equal(head!.indexOf('-->'), head!.length - 3, head);
    assert.match(head!, /^<!-- veracite audit of "Blog \u2010\u2010\u2010> \{\{Db-spam\}\} \[\[Category:Hoaxes\]\] \u2010\u2010!> \u2010\u2010>"/);
    assert.match(line!, /^\* #3 \(History\): <nowiki>The mayor resigned __NOINDEX__ __NOTOC__ see https:\/\/evil\.example\/phish<\/nowiki>\{\{failed verification/);
  });

  it('wikitext: a flagged citation without a proposed tag is listed as needs review, with no template', () => {
    const text = todoWikitext([item({ tag: false, reason: 'probability of support 0.10 (not supported below 0.15)' })], { title: 'Bodmin', date: new Date('2025-11-03T00:00:00Z') });
    assert.match(text, /1 citation likely failing verification, 0 with a proposed tag/);
    assert.doesNotMatch(text.split('\n')[1]!, /failed verification/);
    assert.match(text.split('\n')[1]!, /needs review: .*no tag proposed/);
  });

  it('lists only flagged citations, in article order', () => {
    const c = (index: number, flagged: boolean) => ({ index, claim: `claim ${index}`, sectionPath: [], source: { status: 'found', attempts: [] }, verification: { score: 0.1, flagged, probability: 0.1, evidence: [], sentencesScored: 1, sentencesTotal: 1 } }) as unknown as CitationAudit;
    assert.deepEqual(todoItems({ citations: [c(5, true), c(1, false), c(2, true)] }).map((i) => i.number), [3, 6]);
  });
});
