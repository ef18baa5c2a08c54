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

  /** How to hand `head` and `tail` to the socket (`textEncoding`; `utf8` when the maker did not measure them). */
  get textEncoding(): BufferEncoding {
    return this.#textBytes === undefined ? 'utf8' : textEncoding(this.head.length + this.tail.length, this.#textBytes);
  }

  /** The whole body as text. */
  toString(): string {
    return `${this.head}${this.items.toString()}${this.tail}`;
  }
}

/**
 * How to hand text of `chars` characters and `bytes` UTF-8 bytes to the socket: `latin1` when it is
 * ASCII (as many bytes as characters), whose bytes are then the same and are copied instead of encoded;
 * `utf8` otherwise.
 */
export function textEncoding(chars: number, bytes: number): BufferEncoding {
  return bytes === chars ? 'latin1' : 'utf8';
}
