import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';

const parentWatch = join(dirname(fileURLToPath(import.meta.url)), '../../scripts/parent-watch.mjs');

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves with the first line `child` prints. */
const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.split('\n')[0] as string);
    });
    child.on('exit', () => reject(new Error(`exited before printing: ${text}`)));
  });

test("npm start's launcher stops when the shell npm ran it under dies without passing a SIGTERM on (npm's stop as a service manager sends it)", async () => {
  // A shell that starts the launcher's stand-in and waits, as `npm start`'s `sh -c` does; the stand-in watches its
  // parent the way scripts/start.mjs does and says so when it stops.
  const standIn = `import { onParentGone } from ${JSON.stringify(parentWatch)};
onParentGone(() => { process.stdout.write('stopping\\n'); process.exit(0); }, 100);
setInterval(() => undefined, 1000);
process.stdout.write(process.pid + '\\n');`;
  const shell = spawn('sh', ['-c', `${JSON.stringify(process.execPath)} --input-type=module -e "$STAND_IN"; true`], {
    env: { ...process.env, STAND_IN: standIn },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (shell.pid) started.push(shell.pid);
  const launcher = Number(await firstLine(shell));
  started.push(launcher);
  expect(alive(launcher)).toBe(true);

  shell.kill('SIGKILL');
  const deadline = Date.now() + 15_000;
  while (alive(launcher) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(alive(launcher)).toBe(false);
}, 30_000);
