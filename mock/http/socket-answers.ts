/**
 * Answers to what node:http would otherwise answer itself, without problem details (docs/design.md §4,
 * layer 7; docs/integrators.md: bad input never crashes it): requests it cannot parse (`clientError`),
 * `CONNECT`, and an `Expect` other than 100-continue (`checkExpectation`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ProblemError } from './problem.ts';
import { failure, rawResponse } from './send.ts';

export type SocketAnswers = ReturnType<typeof socketAnswers>;

/** The server listeners, over the app's request ids and its way of answering a served request with an error. */
export function socketAnswers(nextRequestId: () => string, fail: (req: IncomingMessage, res: ServerResponse, error: ProblemError) => void) {
  /** Sockets answered outside node:http (clientError, CONNECT). */
  const answered = new WeakSet<Duplex>();

  /**
   * Answers and half-closes a socket node:http no longer serves, but keeps reading (and discarding) what
   * the client still sends for a while: closing at once would reset the connection and could lose the
   * answer.
   */
  const lingeringEnd = (socket: Duplex, response: string): void => {
    answered.add(socket);
    socket.on('data', () => {}).on('error', () => socket.destroy());
    socket.end(response);
    setTimeout(() => socket.destroy(), 5000).unref();
  };

  return {
    /**
     * The server's `clientError`: a request node:http cannot parse (a bad method, URL or header byte,
     * headers over 16 KiB, a request too slow to arrive) still gets problem details, then the
     * connection closes.
     */
    clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
      if (answered.has(socket)) return; // node:http reports every later chunk too: it is discarded
      if (!socket.writable || error.code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const problem = error.code === 'HPE_HEADER_OVERFLOW' ? new ProblemError(431, 'header_fields_too_large', 'The request headers exceed 16 KiB.')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new ProblemError(408, 'request_timeout', 'The request did not arrive in time.')
        : new ProblemError(400, 'validation_error', `The request is not well-formed HTTP/1.1 (${error.code ?? 'unparsable'}).`);
      lingeringEnd(socket, rawResponse(failure(nextRequestId(), problem)));
    },

    /** The server's `connect`: CONNECT is no method of the API; 405 problem details, then close. */
    connect(_req: IncomingMessage, socket: Duplex): void {
      lingeringEnd(socket, rawResponse(failure(nextRequestId(), new ProblemError(405, 'method_not_allowed', 'CONNECT is not supported.'))));
    },

    /** The server's `checkExpectation` (an `Expect` other than 100-continue): 417 problem details. */
    expectation(req: IncomingMessage, res: ServerResponse): void {
      fail(req, res, new ProblemError(417, 'expectation_failed', `Expect: ${req.headers.expect} is not supported.`));
    },
  };
}
