/**
 * The floor under the realtime fan-out: what one message to each of BENCH_WRITE_FLOOR_SOCKETS (8,000) loopback `ws`
 * sockets costs this process, with nothing else going on (no GraphQL, no events). The sockets are held by 4 forked
 * processes (this file again, with `client`), which read and count what arrives. Three ways to send the same count
 * message, alternated over BENCH_WRITE_FLOOR_ROUNDS (6) rounds, CPU per socket (user and kernel):
 *   - `ws.send`: ws frames each message itself (how graphql-ws sends);
 *   - one ready frame per socket: the message with the socket's own subscription id, framed here and written in one
 *     write to the connection (how PushedResults sends);
 *   - the same ready buffer to every socket: one write(2) per socket and nothing else, the floor.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrame } from '../api/src/graphql/shared-results.js';
import { out } from './support.js';

const SOCKETS = Number(process.env.BENCH_WRITE_FLOOR_SOCKETS ?? 8000);
const ROUNDS = Number(process.env.BENCH_WRITE_FLOOR_ROUNDS ?? 6);
const CLIENT_PROCESSES = 4;

/** A client process: opens its share of sockets, reports `opened`, then counts messages until asked. */
async function client(url: string, count: number): Promise<void> {
  let received = 0;
  for (let start = 0; start < count; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, count - start) }, async () => {
        const socket = new WebSocket(url);
        socket.on('message', () => {
          received += 1;
        });
        await once(socket, 'open');
      }),
    );
  }
  process.send?.({ opened: count });
  process.on('message', (message: string) => {
    if (message === 'received') process.send?.({ received });
    else process.exit(0);
  });
}

function reply<T>(child: ChildProcess, ask?: string): Promise<T> {
  const answer = once(child, 'message').then(([message]) => message as T);
  if (ask) child.send(ask);
  return answer;
}

async function main(): Promise<void> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const sockets: { socket: WebSocket; connection: Socket }[] = [];
  server.on('connection', (socket, request) => sockets.push({ socket, connection: request.socket }));
  const { port } = server.address() as { port: number };
  const share = Math.floor(SOCKETS / CLIENT_PROCESSES);
  const clients = Array.from({ length: CLIENT_PROCESSES }, () =>
    fork(fileURLToPath(import.meta.url), ['client', `ws://127.0.0.1:${port}`, String(share)], { execArgv: ['--import', 'tsx'] }),
  );
  await Promise.all(clients.map((child) => reply(child)));

  // graphql-ws's ids are the client's (UUIDs from its own client): each socket's message differs in its head.
  const heads = sockets.map((_, index) =>
    Buffer.from(`{"id":"${index.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000","type":"next","payload":`),
  );
  const tail = Buffer.from('{"data":{"mixListenerCount":12345}}}');
  const shared = textFrame(heads[0], tail);
  const ways: [string, (index: number) => void][] = [
    ['ws.send (ws frames each message)', (index) => sockets[index].socket.send(Buffer.concat([heads[index], tail]))],
    ['one ready frame per socket, one write', (index) => sockets[index].connection.write(textFrame(heads[index], tail))],
    ['the same buffer to every socket (the floor)', (index) => sockets[index].connection.write(shared)],
  ];
  const totals = ways.map(() => ({ user: 0, system: 0 }));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [way, [, send]] of ways.entries()) {
      const before = process.cpuUsage();
      for (let index = 0; index < sockets.length; index += 1) send(index);
      // Writes the kernel did not take at once finish later: their CPU counts too.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const used = process.cpuUsage(before);
      totals[way].user += used.user;
      totals[way].system += used.system;
    }
  }
  const received = (await Promise.all(clients.map((child) => reply<{ received: number }>(child, 'received')))).reduce(
    (sum, { received }) => sum + received,
    0,
  );
  for (const child of clients) child.send('exit');
  server.close();

  out(`# realtime write floor: one message to each of ${sockets.length.toLocaleString('en')} loopback ws sockets, ${ROUNDS} rounds each`);
  out(
    `load average (1 / 5 / 15 min): ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')}`,
  );
  for (const [way, [name]] of ways.entries()) {
    const perSocket = (micros: number) => (micros / (ROUNDS * sockets.length)).toFixed(2);
    const { user, system } = totals[way];
    out(`   ${name}: ${perSocket(user + system)} µs a socket (user ${perSocket(user)}, kernel ${perSocket(system)})`);
  }
  out(`   messages received: ${received.toLocaleString('en')} of ${(ROUNDS * ways.length * sockets.length).toLocaleString('en')}`);
}

if (process.argv[2] === 'client') await client(process.argv[3], Number(process.argv[4]));
else await main();
