/**
 * A JSON response body in three chunks: text, bytes already encoded, text. List pages use it for their
 * records (json-cache.ts `pageBytes`), so a page of 100 records is neither joined nor encoded again per
 * request: the chunks go to the socket as they are, in one write.
 */
export class ChunkedJsonBody {
  constructor(
    readonly head: string,
    readonly items: Buffer,
    readonly tail: string,
  ) {}

  /** The body's length in bytes (Content-Length). */
  get byteLength(): number {
    return Buffer.byteLength(this.head) + this.items.length + Buffer.byteLength(this.tail);
  }

  /** The whole body as text. */
  toString(): string {
    return `${this.head}${this.items.toString()}${this.tail}`;
  }
}
