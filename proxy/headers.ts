/**
 * Hop-by-hop headers (RFC 9110 §7.6.1): a proxy removes `Connection`, every header `Connection` names,
 * and `Proxy-Connection`, `Keep-Alive`, `TE`, `Transfer-Encoding` and `Upgrade`; everything else is
 * forwarded unchanged, in order, with its original case and repetitions.
 */

const HOP_BY_HOP = new Set(['connection', 'proxy-connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade']);

/**
 * The end-to-end headers of a raw header list (`IncomingMessage.rawHeaders`: name, value, name, value …),
 * as the same flat list. Message framing is the sender's: node:http re-frames what it forwards.
 */
export function endToEnd(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) if (token.trim()) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** Lowercased headers of a raw list, repeated ones joined with ", " (as the suite records them). */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    out[name] = out[name] === undefined ? raw[i + 1]! : `${out[name]}, ${raw[i + 1]}`;
  }
  return out;
}
