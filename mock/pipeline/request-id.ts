/**
 * Layer 1: a correlation id for every response, 204 and errors included (Limits › response headers:
 * `X-Request-ID`). Ids are unique within a process: a random prefix per process plus a counter.
 */
import { randomBytes } from 'node:crypto';

export class RequestIds {
  private readonly prefix = `req_${randomBytes(5).toString('hex')}`;
  private counter = 0;

  /** A new id, never repeated by this generator. */
  next(): string {
    return `${this.prefix}${(++this.counter).toString(36).padStart(7, '0')}`;
  }
}
