/**
 * Reading request bodies with a size limit, and parsing JSON ones. Malformed JSON is a 400
 * `validation_error`; a body over the limit is 413 (the work-request upload limit is 1 MiB, Limits).
 */
import type { IncomingMessage } from 'node:http';
import { ProblemError, invalid } from '../http/problem.ts';

/** 1 MiB: the largest body the mock accepts (uploads and JSON alike). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the whole body; rejects with 413 problem details (and drains the rest) past `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const tooLarge = () => new ProblemError(413, 'payload_too_large', `The request body exceeds ${limit} bytes (1 MiB).`, {}, { Connection: 'close' });
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
      failed = true;
    });
  });
}

/** Whether a request announces a body (Content-Length other than 0, or Transfer-Encoding). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Resolves once the rest of the request body has arrived and been discarded, or after `limit` more
 * bytes or `ms` milliseconds. An answer sent while the client is still sending would make the closing
 * connection reset, and the client could lose the answer (a "lingering close").
 */
export function drained(req: IncomingMessage, limit = 16 * MAX_BODY_BYTES, ms = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve();
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', count);
      resolve();
    };
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) done();
    };
    const timer = setTimeout(done, ms).unref();
    req.on('data', count).once('end', done).once('close', done).once('error', done);
    req.resume();
  });
}

/** The media type of a Content-Type header, lowercased, without parameters. */
export function mediaType(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return header.split(';')[0]!.trim().toLowerCase() || undefined;
}

/** Whether a media type is JSON (`application/json` or `*\/*+json`). */
export function isJson(type: string | undefined): boolean {
  return type === 'application/json' || (type !== undefined && /^application\/[\w.+-]+\+json$/.test(type));
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses a JSON body; throws 400 `validation_error` when it is not UTF-8 (RFC 8259 §8.1: invalid bytes
 * are refused, never stored as U+FFFD) or not well-formed JSON.
 */
export function parseJson(body: Buffer): unknown {
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw invalid('body', '/', 'is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('body', '/', 'is not well-formed JSON');
  }
}
