import { EventEmitter } from 'node:events';
import { expect, test } from 'vitest';
import { WEB_BUILD_BESIDE, WEB_BUILD_MESSAGES, webBuildBeside } from './web-build.js';

/** A process as the launcher starts it (argv, an IPC channel), or without the flag or the channel. */
function fakeProcess(argv: string[], withChannel = true) {
  const emitter = new EventEmitter();
  const sent: string[] = [];
  const send = (message: string) => sent.push(message);
  return Object.assign(emitter, { argv, sent, send: withChannel ? send : undefined });
}

test('a start beside the web build waits for the launcher to say it is done', async () => {
  const proc = fakeProcess(['node', 'dist/main.js', WEB_BUILD_BESIDE]);
  const built = webBuildBeside(proc);
  // The launcher tells only a server that says it listens: a message before that would be lost.
  expect(proc.sent).toEqual([WEB_BUILD_MESSAGES.waiting]);
  let done = false;
  void built?.then(() => {
    done = true;
  });
  proc.emit('message', 'something else');
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done).toBe(false);
  proc.emit('message', WEB_BUILD_MESSAGES.done);
  await built;
  expect(done).toBe(true);
  expect(proc.listenerCount('message') + proc.listenerCount('disconnect')).toBe(0);
});

test('a failed web build, or a launcher gone before it ended, fails the start', async () => {
  const failed = fakeProcess(['node', 'dist/main.js', WEB_BUILD_BESIDE]);
  const build = webBuildBeside(failed);
  failed.emit('message', WEB_BUILD_MESSAGES.failed);
  await expect(build).rejects.toThrow(/build failed/);
  const orphaned = fakeProcess(['node', 'dist/main.js', WEB_BUILD_BESIDE]);
  const orphanedBuild = webBuildBeside(orphaned);
  orphaned.emit('disconnect');
  await expect(orphanedBuild).rejects.toThrow(/stopped before/);
});

test('a start without the flag, or without a channel to the launcher, serves the web app as built last', () => {
  expect(webBuildBeside(fakeProcess(['node', 'dist/main.js']))).toBeUndefined();
  expect(webBuildBeside(fakeProcess(['node', 'dist/main.js', WEB_BUILD_BESIDE], false))).toBeUndefined();
});
