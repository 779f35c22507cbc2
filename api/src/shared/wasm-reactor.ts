import { readFile } from 'node:fs/promises';

/**
 * C libraries built to WebAssembly as WASI reactors (no main; `_initialize` sets up the C library), as the demo world's
 * LAME (demo-world/lame) and recognition's libmpg123 (modules/recognition/mpg123) are. Neither reads a file, prints or
 * exits: the system calls their C library links answer "not supported", and an exit is an error.
 */
export interface ReactorExports {
  memory: { buffer: ArrayBuffer };
  _initialize(): void;
}

/** The part of the WebAssembly global used here (the API's TypeScript library has no WebAssembly types). */
interface WebAssemblyApi {
  instantiate(bytes: Uint8Array, imports: Record<string, Record<string, unknown>>): Promise<{ instance: { exports: unknown } }>;
}
const { WebAssembly: webAssembly } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

const ENOSYS = 52;
const wasi = {
  fd_close: () => ENOSYS,
  fd_read: () => ENOSYS,
  fd_seek: () => ENOSYS,
  fd_write: () => ENOSYS,
  proc_exit: (code: number) => {
    throw new Error(`a WebAssembly library exited (${code})`);
  },
};

/** A new instance of the reactor at `file`, initialised; `T` names the calls its C glue exports. */
export async function instantiateReactor<T extends ReactorExports>(file: URL): Promise<T> {
  const { instance } = await webAssembly.instantiate(await readFile(file), { wasi_snapshot_preview1: wasi });
  const exports = instance.exports as T;
  exports._initialize();
  return exports;
}
