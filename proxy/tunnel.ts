/**
 * Bytes node:http cannot parse as a request (a bad header byte, a bad method; the server's
 * `clientError`) and CONNECT requests are not the proxy's to judge or answer: they are relayed to the
 * upstream as raw bytes over a connection of their own, and whatever it answers goes back unchanged.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { badGatewayBytes } from './bad-gateway.ts';

/** A relay of raw client connections to one upstream origin. */
export class RawRelay {
  private readonly relays = new WeakMap<Duplex, Socket>();

  /** @param upstream the upstream's URL (only its protocol, host and port are used). */
  constructor(private readonly upstream: URL) {}

  /**
   * Relays `bytes` from `client` to the upstream; the first call for a connection opens the upstream
   * connection and sends its answer back, later calls (node:http reports every later chunk of an
   * unparsable connection again) append to it. Without bytes to relay the connection is closed.
   */
  relay(client: Duplex, bytes: Buffer | undefined): void {
    const open = this.relays.get(client);
    if (open) {
      if (bytes?.length) open.write(bytes);
      return;
    }
    if (!bytes?.length || !client.writable) {
      client.destroy();
      return;
    }
    const port = Number(this.upstream.port) || (this.upstream.protocol === 'https:' ? 443 : 80);
    const host = this.upstream.hostname.replace(/^\[|\]$/g, '');
    const upstream = this.upstream.protocol === 'https:' ? tlsConnect({ host, port, servername: host }) : tcpConnect({ host, port });
    this.relays.set(client, upstream);
    let answered = false;
    upstream.on('data', () => (answered = true));
    upstream.pipe(client);
    upstream.on('error', (e) => {
      if (!answered && client.writable) client.end(badGatewayBytes(e));
      else client.destroy();
    });
    client.on('data', () => {}); // node:http no longer reads it: keep the socket flowing
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.write(bytes);
  }
}
