/**
 * Opaque, signed, expiring cursors (Limits › Pagination): each is bound to one endpoint, filter set,
 * page size, direction and organization; any mismatch, a forged or garbled token, or an expired one is
 * refused with 400 `validation_error`. The lifetime (15 minutes) is inferred.
 *
 * Token: base64url(JSON payload) "." base64url(HMAC-SHA256(secret, payload)) truncated to 128 bits.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalid } from './problem.ts';

export const CURSOR_TTL_MS = 15 * 60_000;

/** What a cursor is bound to. `filters` is the canonical string of the list's filters. */
export interface CursorBinding {
  endpoint: string;
  org: string;
  filters: string;
  limit: number;
  direction: string;
}

type Payload = [version: 1, endpoint: string, org: string, filters: string, limit: number, direction: string, expires: number, position: unknown];

/** Which bindings a codec checks; the self-test's mutants switch single checks off. */
export interface CursorChecks { endpoint: boolean; org: boolean; filters: boolean; limit: boolean; direction: boolean; expiry: boolean }
const ALL_CHECKS: CursorChecks = { endpoint: true, org: true, filters: true, limit: true, direction: true, expiry: true };

/** How many recently issued cursors a codec remembers. */
const RECENT_CURSORS = 1024;

export class CursorCodec {
  /**
   * Cursors issued lately, by payload. A payload holds its expiry in whole seconds, so the same page
   * asked for again within a second gets the same token: it is taken from here instead of being
   * signed again (an HMAC costs more than the rest of a small list page).
   */
  private readonly recent = new Map<string, string>();

  private readonly checks: CursorChecks;

  /** `switchedOff`: binding checks to skip (the self-test's mutants); every check is on by default. */
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number,
    switchedOff: Partial<CursorChecks> = {},
  ) {
    this.checks = { ...ALL_CHECKS, ...switchedOff };
  }

  /** Issues a cursor for `position` (any JSON value) under `binding`. */
  issue(binding: CursorBinding, position: unknown): string {
    return this.issueExpiring(binding, position, this.expiresAt());
  }

  /** The expiry (Unix seconds) a cursor issued now carries; tokens issued within the same value are identical. */
  expiresAt(): number {
    return Math.floor((this.now() + CURSOR_TTL_MS) / 1000);
  }

  /** Issues a cursor for `position` under `binding` expiring at `expires` (Unix seconds, from `expiresAt`). */
  issueExpiring(binding: CursorBinding, position: unknown, expires: number): string {
    const payload: Payload = [1, binding.endpoint, binding.org, binding.filters, binding.limit, binding.direction, expires, position];
    const json = JSON.stringify(payload);
    let token = this.recent.get(json);
    if (token === undefined) {
      const body = Buffer.from(json).toString('base64url');
      token = `${body}.${this.sign(body)}`;
      if (this.recent.size >= RECENT_CURSORS) this.recent.clear();
      this.recent.set(json, token);
    }
    return token;
  }

  /** Opens a cursor, returning its position; throws 400 `validation_error` naming why it is refused. */
  open(token: string, binding: CursorBinding): unknown {
    const dot = token.indexOf('.');
    const body = token.slice(0, dot);
    const sig = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(body));
    if (dot < 1 || sig.length !== expected.length || !timingSafeEqual(sig, expected)) {
      throw invalid('query', 'cursor', 'is not a cursor issued by this service');
    }
    const [, endpoint, org, filters, limit, direction, expires, position] = JSON.parse(Buffer.from(body, 'base64url').toString()) as Payload;
    const mismatch =
      this.checks.org && org !== binding.org ? 'belongs to another organization'
      : this.checks.endpoint && endpoint !== binding.endpoint ? 'was issued for another endpoint'
      : this.checks.filters && filters !== binding.filters ? 'was issued for other filters'
      : this.checks.limit && limit !== binding.limit ? 'was issued for another page size'
      : this.checks.direction && direction !== binding.direction ? 'was issued for the other direction'
      : this.checks.expiry && expires * 1000 <= this.now() ? 'has expired; restart the list without a cursor'
      : undefined;
    if (mismatch) throw invalid('query', 'cursor', mismatch);
    return position;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}
