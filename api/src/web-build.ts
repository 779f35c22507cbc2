/**
 * `npm start` (scripts/start.mjs) builds the web app beside the server's start rather than before it, so that the
 * demo world's first minute of work and the database's creation overlap the build. It then starts the server with
 * this flag and tells it over the IPC channel when the build is done (or failed); the server serves nothing until then,
 * so nobody gets a page from a half-written build.
 */
export const WEB_BUILD_BESIDE = '--web-build-beside';

/**
 * The messages: the server says it is listening for the build's end (a message sent before would be lost), then the
 * launcher says how the build ended.
 */
export const WEB_BUILD_MESSAGES = { waiting: 'web-build-awaited', done: 'web-build-done', failed: 'web-build-failed' } as const;

/** What this needs of the process: its arguments and IPC channel (a test hands in its own). */
interface ProcessLike {
  argv: readonly string[];
  send?: (message: string) => unknown;
  on(event: string, listener: (message: unknown) => void): unknown;
  off(event: string, listener: (message: unknown) => void): unknown;
}

/**
 * When this process was started beside the web app's build: a promise of the build's end (failing when the build fails
 * or the launcher goes away). Otherwise (a plain `node dist/main.js`, the tests, a cluster's API processes, which start
 * only after it) undefined: the web app is there as built last.
 */
export function webBuildBeside(proc: ProcessLike = process): Promise<void> | undefined {
  if (!proc.argv.includes(WEB_BUILD_BESIDE) || !proc.send) return undefined;
  const built = new Promise<void>((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (message !== WEB_BUILD_MESSAGES.done && message !== WEB_BUILD_MESSAGES.failed) return;
      settled();
      if (message === WEB_BUILD_MESSAGES.done) resolve();
      else reject(new Error("the web app's build failed"));
    };
    const onDisconnect = () => {
      settled();
      reject(new Error("npm start stopped before the web app's build was done"));
    };
    const settled = () => {
      proc.off('message', onMessage);
      proc.off('disconnect', onDisconnect);
    };
    proc.on('message', onMessage);
    proc.on('disconnect', onDisconnect);
    proc.send?.(WEB_BUILD_MESSAGES.waiting);
  });
  // Whoever awaits it sees the failure; a start that fails earlier never does.
  built.catch(() => undefined);
  return built;
}
