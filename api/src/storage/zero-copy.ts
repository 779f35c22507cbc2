import type { Socket } from 'node:net';
import koffi from 'koffi';

const PAGE_BYTES = 4096;
const PROT_READ = 1;
const MAP_SHARED = 1;
const MAP_FAILED = 2 ** 64 - 1;
const EINTR = 4;

/**
 * The kernel's own file-to-socket copy, called straight from libc (through koffi): a range served with sendfile(2)
 * skips reading the bytes into memory and writing them back out, which was half of the media path's CPU (measured
 * under load: 28% of the main thread in writev, 22% in read). Used only for pages already in memory, as mincore(2)
 * over a read-only mapping of the file tells, so the event loop never waits for a disk; a range with any page on disk
 * takes the reading path, which brings it in for the next listener. Null where libc has no such calls (not Linux).
 */
export interface ZeroCopy {
  /** A read-only mapping of the whole file, for asking which of its pages are in memory; null when mapping fails. */
  map(fd: number, size: number): FileMapping | null;
  /** Sends up to `length` bytes of the file from `start` to the socket, as many as it takes now; answers how many went. */
  send(socketFd: number, fileFd: number, start: number, length: number): number;
}

export interface FileMapping {
  /** Whether every page of the range is in memory now (reading it then needs no disk). */
  resident(start: number, length: number): boolean;
  unmap(): void;
}

function loadZeroCopy(): ZeroCopy | null {
  if (process.platform !== 'linux') return null;
  try {
    const libc = koffi.load('libc.so.6');
    const sendfile = libc.func('intptr_t sendfile(int out_fd, int in_fd, _Inout_ int64_t *offset, size_t count)');
    const mmap = libc.func('uintptr_t mmap(uintptr_t addr, size_t length, int prot, int flags, int fd, int64_t offset)');
    const munmap = libc.func('int munmap(uintptr_t addr, size_t length)');
    const mincore = libc.func('int mincore(uintptr_t addr, size_t length, _Out_ uint8_t *vec)');

    let pageFlags = new Uint8Array(256);
    return {
      map(fd, size) {
        if (size === 0) return null;
        const base = Number(mmap(0, size, PROT_READ, MAP_SHARED, fd, 0));
        if (base === MAP_FAILED || base <= 0) return null;
        let mapped = true;
        return {
          resident(start, length) {
            if (!mapped || length <= 0 || start < 0 || start + length > size) return false;
            const first = start - (start % PAGE_BYTES);
            const span = start + length - first;
            const pages = Math.ceil(span / PAGE_BYTES);
            if (pageFlags.length < pages) pageFlags = new Uint8Array(pages);
            if (mincore(base + first, span, pageFlags) !== 0) return false;
            for (let page = 0; page < pages; page += 1) if ((pageFlags[page] & 1) === 0) return false;
            return true;
          },
          unmap() {
            if (!mapped) return;
            mapped = false;
            munmap(base, size);
          },
        };
      },
      send(socketFd, fileFd, start, length) {
        const offset = [start];
        let sent = 0;
        while (sent < length) {
          const wrote = Number(sendfile(socketFd, fileFd, offset, length - sent));
          if (wrote > 0) sent += wrote;
          else if (wrote < 0 && koffi.errno() === EINTR) continue;
          // 0: the file ended; EAGAIN: the socket is full for now (the caller sends the rest the usual way); anything
          // else (a peer gone) surfaces on the socket's own next write.
          else break;
        }
        return sent;
      },
    };
  } catch {
    return null;
  }
}

let loaded: ZeroCopy | null | undefined;

/** The zero-copy calls, loaded once; null where they are unavailable (then every range takes the reading path). */
export function zeroCopy(): ZeroCopy | null {
  if (loaded === undefined) loaded = loadZeroCopy();
  return loaded;
}

/** What libuv keeps for a TCP stream: Node exposes neither its descriptor nor its queue publicly. */
interface StreamHandle {
  fd?: number;
  writeQueueSize?: number;
}

/**
 * The socket's file descriptor when bytes written to it now go out after everything written before: a plain TCP
 * socket (not TLS, which has no descriptor of its own) with nothing queued in Node or in libuv. Null otherwise.
 */
export function idleSocketFd(socket: Socket | null): number | null {
  if (!socket || socket.destroyed || socket.writableLength > 0) return null;
  const handle = (socket as unknown as { _handle?: StreamHandle | null })._handle;
  if (!handle || typeof handle.fd !== 'number' || handle.fd < 0 || handle.writeQueueSize !== 0) return null;
  return handle.fd;
}
