/**
 * Text from a target, made safe to print (docs/integrators.md, "Reliability"): a target under test may
 * put terminal escapes (colours, title changes, hyperlinks, cursor moves), other control characters or
 * bidirectional overrides into any text it returns; the console, stderr and Markdown show it without
 * them. Escape sequences (CSI, OSC, and two-byte ESC sequences) are removed whole; every other C0/C1
 * control character and bidi override becomes `�`. Newline and tab stay unless `oneLine` (then `⏎` and a space).
 */

// eslint-disable-next-line no-control-regex
const SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u009b[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without escape sequences and control characters; `oneLine` also folds newlines and tabs. */
export function printable(text: string, oneLine = false): string {
  const out = text.replace(SEQUENCES, '').replace(CONTROLS, '\ufffd');
  return oneLine ? out.replace(/\r?\n/g, ' ⏎ ').replace(/\t/g, ' ') : out;
}
