// npm runs a script through `sh -c`, and passes a signal it receives (a service manager's SIGTERM, `kill` of the npm
// process) to that shell alone. Debian's shell dies of it without passing it on, so the script's process lives on,
// adopted by another parent, and keeps the port: the manager's next start then fails. A process that notices its
// parent change has been left this way and stops as if signalled. Polled: Linux tells a process nothing when its parent
// goes, and Node has no PR_SET_PDEATHSIG.
// The parent when this module was first imported: a parent gone before the watch begins is still noticed.
const startedUnder = process.ppid;

export function onParentGone(stop, everyMs = 500) {
  const timer = setInterval(() => {
    if (process.ppid === startedUnder) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  // The watch alone keeps no process alive.
  timer.unref();
  return () => clearInterval(timer);
}
