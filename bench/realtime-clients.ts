/**
 * Count subscribers for bench/realtime.ts, in a process of their own (forked, several at once): one process cannot
 * hold 20,000 sockets here (the open-file limit is 20,000, hard) and should not be the one core that reads them all.
 * Each socket speaks graphql-ws (graphql-transport-ws) over `ws` and watches one mix's count; each message's count and
 * arrival time (ms since the epoch, sub-millisecond) are kept. Messages from the parent (IPC):
 *   { open: { url, sockets, mixId } }  -> { opened: n } once every socket has its first count (or { failed })
 *   { latencies: changes }             -> { latencies: number[], missed: n } (each socket's delay to each change)
 *   { close: true }                    -> { closed: true }, then the process exits
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const COUNT = 'subscription ($id: ID!) { mixListenerCount(mixId: $id) }';
const COUNT_IN_MESSAGE = /"mixListenerCount":(\d+)/;
const now = () => performance.timeOrigin + performance.now();

interface Socket {
  socket: WebSocket;
  /** Counts and arrival times, one after the other. */
  seen: number[];
}

const sockets: Socket[] = [];
const send = (message: unknown) => process.send?.(message);

/** A socket, tried again a few times: on a loaded machine an upgrade may time out. */
async function openRetrying(url: string, mixId: string): Promise<Socket> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await open(url, mixId);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

function open(url: string, mixId: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws');
    const held: Socket = { socket, seen: [] };
    socket.on('open', () => socket.send('{"type":"connection_init","payload":{}}'));
    socket.on('error', (error) => {
      socket.terminate();
      reject(error);
    });
    socket.on('close', (code) => reject(new Error(`socket closed with ${code}`)));
    socket.on('message', (raw) => {
      const at = now();
      const text = raw.toString();
      const count = COUNT_IN_MESSAGE.exec(text);
      if (count) {
        held.seen.push(Number(count[1]), at);
        if (held.seen.length === 2) resolve(held);
      } else if (text.includes('"connection_ack"')) {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: COUNT, variables: { id: mixId } } }));
      } else if (text.includes('"ping"')) socket.send('{"type":"pong"}');
      else reject(new Error(`unexpected message: ${text.slice(0, 200)}`));
    });
  });
}

/** Each socket's delay to each change: the first message at or after the previous match that carries the change's count. */
function latencies(changes: { count: number; at: number }[]) {
  const delays: number[] = [];
  let missed = 0;
  for (const { seen } of sockets) {
    let cursor = 2; // the first message is the count when the socket subscribed
    for (const change of changes) {
      while (cursor < seen.length && seen[cursor] !== change.count) cursor += 2;
      if (cursor >= seen.length) {
        missed += 1;
        continue;
      }
      // A message may beat the response to the request that caused it (the event leaves before the answer): 0 ms.
      delays.push(Math.max(0, seen[cursor + 1] - change.at));
      cursor += 2;
    }
    seen.length = 2;
  }
  return { delays, missed };
}

process.on(
  'message',
  async (message: {
    open?: { url: string; sockets: number; mixId: string };
    latencies?: { count: number; at: number }[];
    close?: boolean;
  }) => {
    try {
      if (message.open) {
        const { url, sockets: count, mixId } = message.open;
        for (let start = 0; start < count; start += 200) {
          const batch = Array.from({ length: Math.min(200, count - start) }, () => openRetrying(url, mixId));
          sockets.push(...(await Promise.all(batch)));
        }
        send({ opened: sockets.length });
      } else if (message.latencies) {
        const expected = 2 + 2 * message.latencies.length;
        const until = Date.now() + 10_000;
        while (Date.now() < until && sockets.some(({ seen }) => seen.length < expected))
          await new Promise((resolve) => setTimeout(resolve, 20));
        const { delays, missed } = latencies(message.latencies);
        send({ latencies: delays, missed });
      } else if (message.close) {
        await Promise.all(
          sockets.map(
            ({ socket }) =>
              new Promise<void>((resolve) => {
                socket.removeAllListeners('close');
                if (socket.readyState === WebSocket.CLOSED) return resolve();
                socket.once('close', () => resolve());
                socket.close();
              }),
          ),
        );
        send({ closed: true });
        process.exit(0);
      }
    } catch (error) {
      send({ failed: String(error) });
    }
  },
);
