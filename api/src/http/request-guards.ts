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

// The two routes whose bodies are large files: the documented create-mix form and the tus endpoint.
const isUpload = (url: string | undefined) => !!url && /^\/api\/(mix\/create-mix|uploads|track\/[^/?]+\/reference)(\/|\?|$)/.test(url);

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

const STALLED_MESSAGE = 'Request timeout: the request body stopped arriving';
/** How long a reader told of a stall has to remove what it stored and answer; then the connection is cut regardless. */
const READER_GRACE_MS = 30_000;

/** Who reads each request's body and stores what it reads, to be told when the body stalls (see onBodyStalled). */
const stallListeners = new WeakMap<IncomingMessage, (error: Error) => void>();

/**
 * Lets the reader of `request`'s body hear that it stalled, with the 408 to fail its read with: it then removes what it
 * stored of the body before the 408 is answered, instead of the guard answering at once while the reader still has
 * files to clean up. A reader that has not answered within READER_GRACE_MS is cut as any other.
 */
export function onBodyStalled(request: IncomingMessage, listener: (error: Error) => void): void {
  stallListeners.set(request, listener);
}

/**
 * Cuts a request whose body stops arriving: a client may hold a socket only while it sends. Without this, a
 * `Content-Length: 100` with 10 bytes sent keeps a connection (and whatever waits on the body) for good. The timer
 * is the socket's idle timeout, so every chunk that arrives restarts it; it is lifted once the body is complete.
 *
 * Idle means the client sent nothing while the server was ready to read. A server that has stopped reading (its
 * handler is behind: storage writing slowly, a busy process) hears nothing however fast the client sends, so the
 * timer starts over instead of cutting an upload still under way. And a process busy past the timeout may run the
 * timer before reading what arrived meanwhile, so the socket is read once more before the verdict.
 */
export function guardRequestBody(request: IncomingMessage, response: ServerResponse, options: RequestGuardOptions): void {
  if (!hasBody(request)) return;
  const idleMs = isUpload(request.url) ? options.uploadIdleMs : options.bodyIdleMs;
  const socket = request.socket;
  let readerTold = false;
  const answer = () => {
    if (!response.headersSent) {
      response.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      response.end(JSON.stringify({ error: STALLED_MESSAGE, message: STALLED_MESSAGE, status: 408 }), () => request.destroy());
    } else {
      request.destroy();
    }
  };
  const cut = () => {
    const reader = stallListeners.get(request);
    if (!reader || response.headersSent) return answer();
    readerTold = true;
    reader(Object.assign(new Error(STALLED_MESSAGE), { statusCode: 408 }));
    socket.setTimeout(READER_GRACE_MS);
  };
  // The HTTP parser stops reading the socket once the body's reader has not taken what came (its buffer is full).
  const serverBehind = () => socket.isPaused() || request.readableLength >= request.readableHighWaterMark;
  const onIdle = () => {
    if (request.complete || request.destroyed) return;
    if (readerTold) return answer();
    if (serverBehind()) {
      socket.setTimeout(idleMs);
      return;
    }
    const readSoFar = socket.bytesRead;
    // setImmediate runs after the event loop's poll phase, which reads whatever is waiting on the socket.
    setImmediate(() => {
      if (request.complete || request.destroyed) return;
      if (socket.bytesRead !== readSoFar || serverBehind()) socket.setTimeout(idleMs);
      else cut();
    });
  };
  request.setTimeout(idleMs, onIdle);
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
