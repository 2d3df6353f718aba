import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { terminalSafe } from './terminal-safe.js';

describe('terminal-safe output', () => {
  it('drops OSC (title, clipboard, links), DCS, C1 and other controls; keeps colours, redraws, tabs and newlines', () => {
    assert.equal(terminalSafe('X \u001b]0;PWNED-TITLE\u0007 page'), 'X  page');
    assert.equal(terminalSafe('a\u001b]52;c;ZWNobyBwd25lZA==\u001b\\b'), 'ab');
    assert.equal(terminalSafe('see \u001b]8;;https://evil.example\u0007here\u001b]8;;\u0007'), 'see here');
    assert.equal(terminalSafe('x\u001bPq#0;2;0;0;0\u001b\\y'), 'xy');
    assert.equal(terminalSafe('8-bit \u009b31m CSI and \u009d0;t\u009c OSC'), '8-bit 31m CSI and 0;t OSC');
    assert.equal(terminalSafe('nul\u0000 bell\u0007 bs\u0008 del\u007f esc-c\u001bc end'), 'nul bell bs del esc-c end');
    assert.equal(terminalSafe('a trailing ESC \u001b'), 'a trailing ESC ');
    assert.equal(terminalSafe('odd CSI \u001b[ then text, \u001b[6n report'), 'odd CSI hen text,  report');
    const ours = '\u001b[32msupports\u001b[39m\tline\r\n\u001b[2K\u001b[1Gverify: 3/10 claims';
    assert.equal(terminalSafe(ours), ours);
    assert.equal(terminalSafe('JSON "\\u001b]0;x\\u0007" stays'), 'JSON "\\u001b]0;x\\u0007" stays');
  });
});
