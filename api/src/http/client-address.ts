import type { IncomingMessage } from 'node:http';
import proxyAddr, { compile } from '@fastify/proxy-addr';
import type { ProxyTrust } from '../config.js';

/** Whether the address at `hop` (0: the socket's peer, then X-Forwarded-For from the right) is a proxy to see past. */
export type TrustsHop = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as proxy-addr asks it. A hop count trusts that many peers from the socket inwards, whoever they are, so
 * a client that reached the server past the proxy could still name an address: list the proxies where that can happen.
 * Fastify's own hop count no longer reads X-Forwarded-For at all, so a count is handed over as this function too.
 */
export function proxyTrustOf(trust: ProxyTrust): TrustsHop | false {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return compile(trust);
}

/** The client's address of a request Fastify does not route (a WebSocket's upgrade), by the rule `request.ip` follows. */
export function clientAddressOf(request: IncomingMessage, trust: TrustsHop | false): string {
  if (!trust) return request.socket.remoteAddress ?? 'unknown';
  return proxyAddr(request, trust);
}
