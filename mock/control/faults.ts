/**
 * Faults an integrator can inject through the control API to test retries (docs/design.md §4): latency,
 * 5xx answers, 429 answers, dropped headers, optionally only on paths matching a pattern. They attach
 * to the request path as hooks (pipeline/stages.ts): latency and injected answers before the apiPrefix
 * stage (after the control API, which faults never touch), dropped headers on send. Each `set` hands
 * the app only the hooks the configuration needs; with none configured, faults cost nothing.
 */
import { ProblemError } from '../http/problem.ts';
import type { Outgoing } from '../http/send.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { StageHooks, Step } from '../pipeline/stages.ts';

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

  /** `attach` receives the hooks of each new configuration (app.ts `extend`). */
  constructor(
    private readonly attach: (hooks: StageHooks) => void = () => {},
    private readonly random: () => number = Math.random,
  ) {}

  set(config: FaultConfig): void {
    this.config = config;
    this.pattern = config.pathPattern ? new RegExp(config.pathPattern) : undefined;
    this.attach(this.hooks());
  }

  get(): FaultConfig {
    return this.config;
  }

  /** The hooks the current configuration needs: none for an empty one. */
  hooks(): StageHooks {
    const before: Step[] = [];
    if (this.config.latencyMs) before.push(this.delay);
    if (this.config.errorRate || this.config.rateLimitRate) before.push(this.inject);
    return { before: before.length ? { apiPrefix: before } : {}, onSend: this.dropsHeaders ? [(out, ex) => this.strip(out, ex.path)] : [] };
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

  /** Hook: waits `latencyMs` before a matching request goes on. */
  private readonly delay = (ex: Exchange): Promise<void> | undefined => {
    const ms = this.latency(ex.path);
    return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
  };

  /** Hook: answers a matching request with an injected 5xx or 429, at the configured rates. */
  private readonly inject = (ex: Exchange): void => {
    const fault = this.decide(ex.path);
    if (fault.kind === 'error') throw new ProblemError(fault.status, 'injected_fault', 'A fault injected through the mock control API.');
    if (fault.kind === 'rate_limited') throw new ProblemError(429, 'rate_limited', 'A 429 injected through the mock control API.', {}, { 'Retry-After': '1' });
  };

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
