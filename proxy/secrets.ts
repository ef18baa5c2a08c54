/**
 * What the proxy never writes (docs/integrators.md, "The validation proxy"): the credentials clients
 * present — the value of every request header named like one (Authorization, X-Api-Key, Cookie, …) —
 * and anything shaped like an API key. The proxy has no profile: it learns the secrets from the traffic
 * it forwards, and masks them (contract/redact.ts) in its live lines and reports, with control
 * characters stripped (contract/printable.ts).
 */
import { printable } from '../contract/printable.ts';
import { Redactor } from '../contract/redact.ts';

const CREDENTIAL = /^(authorization|proxy-authorization|cookie|x-[\w-]*(key|token|secret|auth|session|signature)[\w-]*)$/i;
/** Secrets remembered at most; the oldest are forgotten beyond (a long-running proxy must not grow forever). */
const REMEMBERED = 1000;

export class ProxySecrets {
  private readonly secrets = new Set<string>();
  private redactor = new Redactor([]);

  /** Learns the credentials of a raw request header list (name, value, …). */
  learn(rawHeaders: readonly string[]): void {
    let learnt = false;
    for (let i = 0; i < rawHeaders.length; i += 2) {
      if (!CREDENTIAL.test(rawHeaders[i]!)) continue;
      for (const part of [rawHeaders[i + 1]!, ...rawHeaders[i + 1]!.split(/[\s,;=]+/)]) {
        if (part.length < 8 || this.secrets.has(part)) continue;
        if (this.secrets.size >= REMEMBERED) this.secrets.delete(this.secrets.values().next().value as string);
        this.secrets.add(part);
        learnt = true;
      }
    }
    if (learnt) this.redactor = new Redactor([...this.secrets]);
  }

  /** `text` with every learnt secret masked and control characters stripped, as one line. */
  text(text: string): string {
    return printable(this.redactor.text(text), true);
  }
}
