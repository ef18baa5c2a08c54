/**
 * A JSON response body in three chunks: text, bytes already encoded, text. List pages use it for their
 * records (json-cache.ts `pageBytes`), so a page of 100 records is neither joined nor encoded again per
 * request: the chunks go to the socket as they are, in one write.
 */
export class ChunkedJsonBody {
  /** The UTF-8 bytes of `head` and `tail` together, when the maker knows them (else measured on demand). */
  readonly #textBytes: number | undefined;

  constructor(
    readonly head: string,
    readonly items: Buffer,
    readonly tail: string,
    textBytes?: number,
  ) {
    this.#textBytes = textBytes;
  }

  /** The body's length in bytes (Content-Length). */
  get byteLength(): number {
    return (this.#textBytes ?? Buffer.byteLength(this.head) + Buffer.byteLength(this.tail)) + this.items.length;
  }

  /**
   * How to hand `head` and `tail` to the socket: `latin1` when the maker measured them as ASCII (as many
   * bytes as characters; the same bytes, copied instead of encoded), `utf8` otherwise.
   */
  get textEncoding(): BufferEncoding {
    return this.#textBytes === this.head.length + this.tail.length ? 'latin1' : 'utf8';
  }

  /** The whole body as text. */
  toString(): string {
    return `${this.head}${this.items.toString()}${this.tail}`;
  }
}
