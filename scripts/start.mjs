// `npm start`: builds what changed (see builds.mjs), then runs the API. The web app's build (about 6 s of two idle
// cores) begins first and runs beside the API's (about a second: the server runs it) and then the server's start, which
// meanwhile creates the database and begins the demo world, and listens once told the build is done
// (api/src/web-build.ts).
// Without a web build to wait for, the server starts as `npm run start -w api` would. `--force` builds both regardless.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { apiBuild, root, webBuild } from './builds.mjs';
import { onParentGone } from './parent-watch.mjs';

const force = process.argv.includes('--force');
// The web app's build needs nothing of the API's (it reads the API's shared sources): it begins first.
const web = webBuild(force);
// Whoever awaits it below sees a failure; an API build that fails first ends the start before that.
web?.done.catch(() => undefined);
try {
  await apiBuild(force);
} catch (error) {
  web?.stop();
  process.stderr.write(`build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
// Imported from the API just built: the protocol lives in one place.
const { WEB_BUILD_BESIDE, WEB_BUILD_MESSAGES } = await import('../api/dist/web-build.js');

const server = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js', ...(web ? [WEB_BUILD_BESIDE] : [])], {
  cwd: join(root, 'api'),
  stdio: ['inherit', 'inherit', 'inherit', ...(web ? ['ipc'] : [])],
});
// The server says when it listens for the build's end: a message sent before that would be lost.
const serverWaits = new Promise((resolve) => server.on('message', (message) => message === WEB_BUILD_MESSAGES.waiting && resolve()));
const tell = (message) =>
  serverWaits.then(() => {
    if (server.connected) server.send(message, () => server.disconnect());
  });
web?.done.then(
  () => tell(WEB_BUILD_MESSAGES.done),
  (error) => {
    process.stderr.write(`build failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    tell(WEB_BUILD_MESSAGES.failed);
  },
);

// Ctrl-C reaches every process of the terminal's group, the server included; a signal sent to this process alone (a
// service manager's SIGTERM) is passed on. The web build is a group of its own: it is ended here either way.
const stop = (signal) => {
  web?.stop();
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
// npm's own SIGTERM never reaches this process (parent-watch.mjs): its shell dying is the sign.
onParentGone(() => stop('SIGTERM'));
server.on('exit', (code, signal) => {
  web?.stop();
  process.exit(process.exitCode || (code ?? (signal ? 1 : 0)));
});
