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

  /** The whole body as text. */
  toString(): string {
    return `${this.head}${this.items.toString()}${this.tail}`;
  }
}
