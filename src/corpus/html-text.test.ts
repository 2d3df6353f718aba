import { test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlToText } from './html-text.js';

test('fragments and pages without <body> still give their text (linkedom adds no implied tags)', () => {
  assert.equal(htmlToText('<p>One.</p><p>Two.</p>').text, 'One.\n\nTwo.');
  const page = htmlToText('<html><head><title>T</title></head><header><p>Intro text.</p></header><p>Para <b>bold</b> text.</p></html>');
  assert.equal(page.title, 'T');
  assert.ok(page.text.includes('Para bold text.'), page.text);
});

test('blocks become paragraphs, <br> a line break, table cells stay apart', () => {
  const { text } = htmlToText('<html><body><div>Three<br>four</div><table><tr><td>a</td><td>b</td></tr></table></body></html>');
  assert.equal(text, 'Three\nfour\n\na b');
});

test('no scripts, styles or head content in the text; empty input gives empty text', () => {
  const { text } = htmlToText('<html><head><style>p{}</style></head><body><script>var s = 1;</script><p>Visible words here.</p><noscript>Enable JS</noscript></body></html>');
  assert.equal(text, 'Visible words here.');
  assert.deepEqual(htmlToText(''), { title: '', text: '', links: [] });
});
