import { createServer } from 'node:net';

/**
 * A port nothing listens on now, as the system hands one out: test files run side by side, and ports drawn at random
 * from a range met each other (a server and another file's embedded PostgreSQL on one port).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port was handed out');
  return address.port;
}
