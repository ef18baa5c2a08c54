/**
 * Faults an integrator can inject through the control API to test retries: latency, 5xx answers,
 * 429 answers, dropped headers, optionally only on paths matching a pattern.
 */
import type { Outgoing } from '../http/send.ts';

export interface FaultConfig {
  /** Delay before each matching request is handled, in milliseconds. */
  latencyMs?: number;
  /** Share (0..1) of matching requests answered with `errorStatus`. */
  errorRate?: number;
  errorStatus?: 500 | 502 | 503;
  /** Share (0..1) of matching requests answered with 429 and `Retry-After`. */
  rateLimitRate?: number;
  /** Response headers removed from matching responses (case-insensitive). */
  dropHeaders?: string[];
  /** A regular expression on the request path; faults apply only where it matches. */
  pathPattern?: string;
}

export type FaultDecision = { kind: 'none' } | { kind: 'error'; status: number } | { kind: 'rate_limited' };

const NO_FAULT: FaultDecision = { kind: 'none' };

export class FaultInjector {
  private config: FaultConfig = {};
  private pattern?: RegExp;

  constructor(private readonly random: () => number = Math.random) {}

  set(config: FaultConfig): void {
    this.config = config;
    this.pattern = config.pathPattern ? new RegExp(config.pathPattern) : undefined;
  }

  get(): FaultConfig {
    return this.config;
  }

  private applies(path: string): boolean {
    return !this.pattern || this.pattern.test(path);
  }

  latency(path: string): number {
    return this.applies(path) ? this.config.latencyMs ?? 0 : 0;
  }

  decide(path: string): FaultDecision {
    if (!this.applies(path)) return NO_FAULT;
    if (this.config.errorRate && this.random() < this.config.errorRate) return { kind: 'error', status: this.config.errorStatus ?? 503 };
    if (this.config.rateLimitRate && this.random() < this.config.rateLimitRate) return { kind: 'rate_limited' };
    return NO_FAULT;
  }

  /** Whether headers are to be dropped from some responses (`strip` has work to do). */
  get dropsHeaders(): boolean {
    return (this.config.dropHeaders?.length ?? 0) > 0;
  }

  /** Removes the configured headers from the response to a request for `path` (when the pattern matches). */
  strip(out: Outgoing, path: string): Outgoing {
    const drop = this.config.dropHeaders;
    if (!drop?.length || !this.applies(path)) return out;
    const lower = new Set(drop.map((h) => h.toLowerCase()));
    for (const name of Object.keys(out.headers)) if (lower.has(name.toLowerCase())) delete out.headers[name];
    return out;
  }
}
