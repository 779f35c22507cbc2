import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer, type Server } from 'node:net';

/**
 * A host of its own on this machine: a network namespace joined to this one by a veth pair, the host at `address`,
 * this machine at `gateway`. Services this machine runs on loopback (PostgreSQL, Redis, the bucket's stand-in) are
 * reachable from the host only through `forward`.
 */
export interface HostNetwork {
  name: string;
  address: string;
  gateway: string;
  /** The command prefix that runs a program inside the namespace. */
  command: string[];
  /** A port on the gateway that carries connections to `target` (a loopback `host:port` of this machine). */
  forward(target: string): Promise<string>;
  remove(): Promise<void>;
}

const ip = (...args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });

/** Pipes every connection to `gateway:port` through to `target`, both ways. */
async function forwarder(gateway: string, target: string): Promise<Server> {
  const [targetHost, targetPort] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const server = createServer((inbound) => {
    const outbound = createConnection({ host: targetHost, port: targetPort });
    inbound.pipe(outbound).pipe(inbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', end);
    outbound.on('error', end);
    inbound.on('close', end);
    outbound.on('close', end);
  });
  server.listen(0, gateway);
  await once(server, 'listening');
  return server;
}

/**
 * Makes host `index` (1 to 250) of this test run, or answers null where namespaces cannot be made (not root, no
 * iproute2): the caller then runs its hosts on ports of this machine.
 */
export function makeHostNetwork(index: number): HostNetwork | null {
  const tag = `${process.pid % 10_000}${index}`;
  const name = `mixcrate-${tag}`;
  const [outside, inside] = [`mxo${tag}`, `mxi${tag}`];
  const subnet = `10.${200 + (process.pid % 50)}.${index}`;
  const [gateway, address] = [`${subnet}.1`, `${subnet}.2`];
  const steps = [
    ['netns', 'add', name],
    ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside],
    ['link', 'set', inside, 'netns', name],
    ['addr', 'add', `${gateway}/30`, 'dev', outside],
    ['link', 'set', outside, 'up'],
    ['-n', name, 'addr', 'add', `${address}/30`, 'dev', inside],
    ['-n', name, 'link', 'set', inside, 'up'],
    ['-n', name, 'link', 'set', 'lo', 'up'],
  ];
  const removeNow = () => {
    ip('netns', 'del', name);
    ip('link', 'del', outside);
  };
  for (const step of steps) {
    if (ip(...step).status !== 0) {
      removeNow();
      return null;
    }
  }
  const forwarders: Server[] = [];
  return {
    name,
    address,
    gateway,
    command: ['ip', 'netns', 'exec', name],
    async forward(target) {
      const server = await forwarder(gateway, target);
      forwarders.push(server);
      return `${gateway}:${(server.address() as { port: number }).port}`;
    },
    async remove() {
      await Promise.all(forwarders.map((server) => new Promise((resolve) => server.close(resolve))));
      removeNow();
    },
  };
}
