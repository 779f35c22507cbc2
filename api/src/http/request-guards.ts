import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface RequestGuardOptions {
  /** A body that sends nothing for this long is answered 408 and its connection closed. */
  bodyIdleMs: number;
  /** The same for uploads, whose clients may pause longer (a phone changing networks). */
  uploadIdleMs: number;
  /** Headers must be complete within this long (Node answers 408 itself). */
  headersTimeoutMs: number;
  /** Open connections one address may hold at once; 0 for no cap (behind a proxy every client shares its address). */
  maxConnectionsPerAddress: number;
}

// The two routes whose bodies are large files: the SPEC's create-mix form and the tus endpoint.
const isUpload = (url: string | undefined) => !!url && /^\/api\/(mix\/create-mix|uploads|track\/[^/?]+\/reference)(\/|\?|$)/.test(url);

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/**
 * Cuts a request whose body stops arriving: a client may hold a socket only while it sends. Without this, a
 * `Content-Length: 100` with 10 bytes sent keeps a connection (and whatever waits on the body) for good. The timer
 * is the socket's idle timeout, so every chunk that arrives restarts it; it is lifted once the body is complete.
 */
export function guardRequestBody(request: IncomingMessage, response: ServerResponse, options: RequestGuardOptions): void {
  if (!hasBody(request)) return;
  const onIdle = () => {
    if (request.complete) return;
    const message = 'Request timeout: the request body stopped arriving';
    if (!response.headersSent) {
      response.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      response.end(JSON.stringify({ error: message, message, status: 408 }), () => request.destroy());
    } else {
      request.destroy();
    }
  };
  request.setTimeout(isUpload(request.url) ? options.uploadIdleMs : options.bodyIdleMs, onIdle);
  const release = () => {
    request.off('timeout', onIdle);
    request.socket?.setTimeout(0);
  };
  request.once('end', release);
  request.once('close', release);
}

/** Node's own limits for slow headers, and a cap on the connections one address holds. */
export function guardServer(server: Server, options: RequestGuardOptions): void {
  server.headersTimeout = options.headersTimeoutMs;
  if (options.maxConnectionsPerAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > options.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
