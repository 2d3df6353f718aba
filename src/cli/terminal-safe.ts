/**
 * What the CLI writes to a terminal carries no control sequence from the text it prints. Claims, page titles and
 * evidence come from articles and fetched pages: an attacker's page whose title holds `ESC ] 0 ; … BEL` (set the
 * window title), `ESC ] 52 ; c ; … BEL` (write the clipboard, in some terminals) or `ESC ] 8 ; ;` (a hidden link)
 * reached stdout unchanged (a tester's finding). Every string written to stdout and stderr is filtered here:
 *
 * - kept: tab, newline, carriage return, and the CSI sequences of colour, cursor and erase (`ESC [` digits,
 *   `;` or `?`, then one of A-H J K S T f h l m): the evidence highlighting's colours and the progress bar's
 *   line redraws; any other CSI is dropped;
 * - dropped: OSC, DCS, APC, PM and SOS strings with their payload (to BEL or ST), any other ESC sequence, the
 *   other C0 controls, DEL and the C1 controls (U+0080-U+009F, whose U+009B / U+009D are 8-bit CSI / OSC).
 *
 * A page's own colour or cursor CSI is kept too (this filter cannot tell it from ours): it can recolour or
 * redraw a line, not set a title, write the clipboard or hide a link. Claims given to verify / check refuse
 * control characters outright (verify/claim-text.ts).
 * JSON output is unchanged: JSON.stringify writes these characters as \u escapes.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|[\]P_^X][\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|[\s\S]?)|[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f]/g;

// eslint-disable-next-line no-control-regex
const CSI = /^\u001b\[[0-9;?]*[A-HJKSTfhlm]$/;

/** `s` with every control sequence but CSI, and every control character but tab, newline and CR, removed. */
export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, (m) => (CSI.test(m) ? m : ''));
}

/** Filters every string written to stdout and stderr through terminalSafe (bytes are passed as they are). */
export function installTerminalSafeOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? terminalSafe(chunk) : chunk, ...rest)) as typeof stream.write;
  }
}
