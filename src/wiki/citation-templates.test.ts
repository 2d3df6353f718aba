import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bibliography, cleanIdentifier, IDENTIFIER_KINDS, readShortCitation, rpPages, templateParams } from './citation-templates.js';
import { parseWikitext } from './parse-wikitext.js';
import type { CitationSource } from './types.js';

/** The source of the one citation of `Claim.<ref>...</ref>`. */
function sourceOf(ref: string, after = ''): CitationSource {
  const a = parseWikitext(`Some claim here.${ref}${after}\n`);
  assert.equal(a.citations.length, 1, `one citation from ${ref}`);
  return a.citations[0]!.source;
}

describe('citation templates: one test per family', () => {
  const families: [string, string][] = [
    ['cite journal', '{{cite journal |title=T |journal=Cell |doi=10.1016/j.cell.2007.07.032 |pmid=17693247}}'],
    ['cite web', '{{cite web |url=https://example.org/a |title=T |website=Ex}}'],
    ['cite book', '{{cite book |last=Smith |title=T |isbn=978-0-19-852663-6}}'],
    ['cite news', '{{cite news |url=https://news.example/x |title=T |newspaper=The Times}}'],
    ['cite conference', '{{cite conference |title=T |conference=C |doi=10.1109/ICCV.2017.1}}'],
    ['cite report', '{{cite report |title=T |url=https://gov.example/r.pdf}}'],
    ['cite thesis', '{{cite thesis |title=T |hdl=1721.1/12345}}'],
    ['cite press release', '{{cite press release |url=https://corp.example/pr |title=T}}'],
    ['cite arXiv', '{{cite arXiv |eprint=1706.03762 |title=Attention}}'],
    ['cite bioRxiv', '{{cite bioRxiv |biorxiv=10.1101/2020.01.01.123456 |title=T}}'],
    ['cite encyclopedia', '{{cite encyclopedia |title=T |encyclopedia=Britannica |oclc=1234567}}'],
    ['citation (CS2)', '{{citation |last=Smith |year=2010 |title=T |jstor=3657357}}'],
    ['vcite journal', '{{vcite journal |author=Smith J |title=T |journal=J |doi=10.1000/182 |pmid=123}}'],
    ['cite doi leftover', '{{cite doi|10.1000/182}}'],
    ['cite pmid leftover', '{{Cite pmid|17693247}}'],
  ];
  for (const [family, tpl] of families) {
    it(family, () => {
      const s = sourceOf(`<ref>${tpl}</ref>`);
      assert.ok(s.url || (s.ids && Object.keys(s.ids).length), `${family}: ${JSON.stringify(s)}`);
    });
  }

  it('bare and bracketed URLs', () => {
    assert.equal(sourceOf('<ref>http://example.org/p, seen 2010</ref>').url, 'http://example.org/p');
    assert.equal(sourceOf('<ref>[https://example.org/p The page]</ref>').url, 'https://example.org/p');
  });

  it('a Google Books link written as a template is the URL', () => {
    const s = sourceOf('<ref>{{cite book |title=T |url={{Google books|abcDEF123|page=5}} |isbn=0-19-852663-6}}</ref>');
    assert.equal(s.url, 'https://books.google.com/books?id=abcDEF123&pg=PA5');
  });
});

describe('citation templates: one test per identifier kind', () => {
  const kinds: Record<(typeof IDENTIFIER_KINDS)[number], [string, string]> = {
    doi: ['| DOI = 10.1000/xyz123 ', '10.1000/xyz123'],
    pmid: ['|PMID=17693247', '17693247'],
    pmc: ['|pmc = PMC1326979', '1326979'],
    arxiv: ['|arxiv=hep-th/9901001', 'hep-th/9901001'],
    isbn: ['|ISBN=978-0-12-345678-9', '978-0-12-345678-9'],
    issn: ['|issn=0028-0836', '0028-0836'],
    bibcode: ['|bibcode=2007Cell..130..395C', '2007Cell..130..395C'],
    s2cid: ['|s2cid=4397398', '4397398'],
    jstor: ['|jstor=20617660', '20617660'],
    hdl: ['|hdl=1721.1/12345', '1721.1/12345'],
    oclc: ['|oclc=55', '55'],
  };
  for (const [kind, [param, value]] of Object.entries(kinds)) {
    it(`${kind}= in a cite template`, () => {
      const s = sourceOf(`<ref>{{cite journal |title=T\n ${param}\n |doi-access=free}}</ref>`);
      assert.equal((s.ids as Record<string, string>)[kind], value);
    });
    it(`{{${kind}|...}} in a free-form ref`, () => {
      const s = sourceOf(`<ref>Smith J. ''Title''. Journal, 2010. {{${kind.toUpperCase()}|${value}}}</ref>`);
      assert.equal((s.ids as Record<string, string>)[kind], value);
    });
  }

  it('spacing, case and line breaks do not matter', () => {
    const s = sourceOf('<ref>{{Cite Journal\n| Title   = T\n|DOI=10.1/ABC\n|   Pmid   =   42\n}}</ref>');
    assert.deepEqual(s.ids, { doi: '10.1/ABC', pmid: '42' });
    assert.equal(s.title, 'T');
  });

  it('magic words and prefixes in free text: ISBN, PMID, doi:, arXiv:', () => {
    const s = sourceOf('<ref>Smith, J. (2010). Title. Oxford. ISBN 0-19-852663-6. PMID 12345; doi:10.1000/182; arXiv:1706.03762</ref>');
    assert.deepEqual(s.ids, { doi: '10.1000/182', pmid: '12345', arxiv: '1706.03762', isbn: '0-19-852663-6' });
  });

  it('a DOI resolver URL gives the DOI', () => {
    assert.equal(sourceOf('<ref>[http://dx.doi.org/10.1080/17533171.2011.533910 An interview]</ref>').ids?.doi, '10.1080/17533171.2011.533910');
  });

  it('identifier values are cleaned or refused', () => {
    assert.equal(cleanIdentifier('doi', 'https://doi.org/10.1/x.'), '10.1/x');
    assert.equal(cleanIdentifier('pmc', 'PMC 77'), '77');
    assert.equal(cleanIdentifier('pmid', 'n/a'), undefined);
    assert.equal(cleanIdentifier('doi', 'unknown'), undefined);
  });

  it('the other fields: archive, url-status, work, date, pages, quote', () => {
    const s = sourceOf(
      '<ref>{{cite web |url=https://x.org/a |title=T |work=W |date=1 May 2010 |page=12 |quote=It was so. |archive-url=https://web.archive.org/web/2011/https://x.org/a |archive-date=2011 |url-status=dead}}</ref>',
    );
    assert.deepEqual(
      { url: s.url, archiveUrl: s.archiveUrl, archiveDate: s.archiveDate, deadUrl: s.deadUrl, work: s.work, date: s.date, pages: s.pages, quote: s.quote },
      { url: 'https://x.org/a', archiveUrl: 'https://web.archive.org/web/2011/https://x.org/a', archiveDate: '2011', deadUrl: true, work: 'W', date: '1 May 2010', pages: '12', quote: 'It was so.' },
    );
  });
});

describe('short footnotes link to their bibliography entry', () => {
  const bibliography = `
==References==
{{reflist}}

==Sources==
* {{cite book |last=Smith |first=J. |year=2010 |title=The Book |isbn=978-0-12-345678-9 |url=https://books.example/smith}}
* {{cite journal |last1=Brown |last2=Green |date=March 2001 |title=Paper |journal=J |doi=10.1000/bg2001}}
* {{cite journal |vauthors=Kim J, Lee K |year=1999 |title=Vancouver |pmid=999}}
* {{citation |author=World Health Organization |title=Report |year=2005 |ref={{sfnref|WHO|2005}} |hdl=10665/43325}}
`;

  it('{{sfn}} outside a ref: the entry by last name + year, with the footnote page', () => {
    const a = parseWikitext(`Claim one.{{sfn|Smith|2010|p=5}} Claim two.{{sfn|Brown|Green|2001|pp=3–4}} Claim three.{{harvnb|Kim|Lee|1999}}\n${bibliography}`);
    const [one, two, three] = a.citations.map((c) => c.source);
    assert.equal(one!.url, 'https://books.example/smith');
    assert.equal(one!.ids?.isbn, '978-0-12-345678-9');
    assert.equal(one!.pages, '5');
    assert.equal(one!.raw, '{{sfn|Smith|2010|p=5}}');
    assert.match(one!.fullEntry!, /^\{\{cite book \|last=Smith/);
    assert.equal(two!.ids?.doi, '10.1000/bg2001');
    assert.equal(two!.pages, '3–4');
    assert.equal(three!.ids?.pmid, '999');
  });

  it('{{harvnb}} inside a ref, and an entry anchored by ref={{sfnref}}', () => {
    const a = parseWikitext(`Claim one.<ref>{{harvnb|WHO|2005|p=12}}.</ref> Claim two.<ref>{{Harvnb|Nobody|1900}}</ref>\n${bibliography}`);
    const [who, nobody] = a.citations.map((c) => c.source);
    assert.equal(who!.ids?.hdl, '10665/43325');
    assert.equal(who!.pages, '12');
    assert.equal(nobody!.fullEntry, undefined);
    assert.equal(nobody!.url, undefined);
  });

  it('a ref with its own link keeps it, with the entry filling the rest', () => {
    const a = parseWikitext(`Claim.<ref>{{harvnb|Smith|2010}} [https://books.example/smith/p5 p. 5]</ref>\n${bibliography}`);
    const s = a.citations[0]!.source;
    assert.equal(s.url, 'https://books.example/smith/p5');
    assert.equal(s.ids?.isbn, '978-0-12-345678-9');
    assert.equal(s.title, 'The Book');
  });

  it('{{rp}} after a ref gives its page', () => {
    const a = parseWikitext('Claim.<ref name="b">{{cite book |title=B |isbn=0-19-852663-6}}</ref>{{rp|44}} Again.<ref name="b"/>{{rp|page=45}}\n');
    assert.deepEqual(a.citations.map((c) => c.source.pages), ['44', '45']);
  });

  it('reading the templates', () => {
    assert.deepEqual(readShortCitation('{{sfn|[[John Smith|Smith]]|2010a|loc=ch. 2}}'), { names: ['Smith'], year: '2010a', pages: 'ch. 2' });
    assert.deepEqual(readShortCitation('{{sfnm|1a1=Smith|1y=2010|1p=4|2a1=Jones|2y=2011}}'), { names: ['Smith'], year: '2010', pages: '4' });
    assert.equal(readShortCitation('{{cite web|url=x}}'), undefined);
    assert.equal(rpPages('{{rp|at=fig. 2}}'), 'fig. 2');
    assert.deepEqual(templateParams('{{a|b|c={{d|e=f}}|[[g|h]]}}'), { name: 'a', positional: ['b', '[[g|h]]'], named: { c: '{{d|e=f}}' } });
    const bib = new Bibliography('{{cite book |last=Ng |year=2001 |title=X |ref=none}} {{cite book |editor-last=Ode |year=1999 |title=Y}}');
    assert.equal(bib.find({ names: ['Ng'], year: '2001' }), undefined);
    assert.ok(bib.find({ names: ['Ode'], year: '1999' }));
  });
});
