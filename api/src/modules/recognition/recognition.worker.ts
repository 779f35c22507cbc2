// The recognition thread: decoding, fingerprinting and matching run here, off the API's event loop (a two-hour mix is
// a minute of solid CPU). It holds the fingerprint index, sent by the main thread as typed arrays
// (RecognitionThread), and works on audio streamed to it chunk by chunk, asking for each next chunk so a long file
// never piles up in its queue.

import { parentPort } from 'node:worker_threads';
import { decodeAudio } from './audio.js';
import { ReferenceFingerprinter } from './fingerprint.js';
import { IndexBuilder, type MemoryIndex } from './fingerprint-index.js';
import { RecognitionSession } from './matcher.js';
import type { ThreadReply, ThreadRequest } from './recognition-thread.js';

const port = parentPort;
if (!port) throw new Error('recognition.worker runs as a worker thread');
const reply = (message: ThreadReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let builder: IndexBuilder | null = null;
let index: MemoryIndex | null = null;

/** Audio chunks of one operation, as they arrive: an async iterable that asks for the next chunk as it takes one. */
class Inbox implements AsyncIterable<Uint8Array> {
  private readonly chunks: Uint8Array[] = [];
  private ended = false;
  private waiting: (() => void) | null = null;

  constructor(private readonly id: number) {}

  push(chunk: Uint8Array | null) {
    if (chunk) this.chunks.push(chunk);
    else this.ended = true;
    this.waiting?.();
    this.waiting = null;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        reply({ type: 'pull', id: this.id });
        yield chunk;
      } else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

const inboxes = new Map<number, Inbox>();

async function identify(id: number, inbox: Inbox, settings: { onProgress: boolean }) {
  const current = index;
  if (!current) throw new Error('No fingerprint index was loaded');
  let session: RecognitionSession | null = null;
  await decodeAudio(inbox, (mono, sampleRate) => {
    session ??= new RecognitionSession(current, sampleRate, {
      onProgress: settings.onProgress
        ? (progress) =>
            reply({ type: 'progress', id, seconds: progress.seconds, detections: progress.detections, found: session?.found() ?? [] })
        : undefined,
    });
    session.push(mono);
  });
  if (!session) throw new Error('No audio could be decoded');
  reply({ type: 'detections', id, detections: (session as RecognitionSession).finish() });
}

async function fingerprint(id: number, inbox: Inbox) {
  let fingerprinter: ReferenceFingerprinter | null = null;
  await decodeAudio(inbox, (mono, sampleRate) => {
    fingerprinter ??= new ReferenceFingerprinter(sampleRate);
    fingerprinter.push(mono);
  });
  if (!fingerprinter) throw new Error('No audio could be decoded');
  const { hashes, data, seconds } = (fingerprinter as ReferenceFingerprinter).finish();
  reply({ type: 'fingerprints', id, hashes, data, seconds }, [hashes.buffer as ArrayBuffer, data.buffer as ArrayBuffer]);
}

function start(id: number, work: (inbox: Inbox) => Promise<void>) {
  const inbox = new Inbox(id);
  inboxes.set(id, inbox);
  work(inbox)
    .catch((error: unknown) => reply({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) }))
    .finally(() => inboxes.delete(id));
}

port.on('message', (message: ThreadRequest) => {
  switch (message.type) {
    case 'reset':
      builder = null;
      break;
    case 'rows':
      builder ??= new IndexBuilder();
      builder.addRows(message.hashes, message.tracks, message.data);
      break;
    case 'build':
      index = (builder ?? new IndexBuilder()).build();
      builder = null;
      reply({ type: 'built', id: message.id, entries: index.size });
      break;
    case 'identify':
      start(message.id, (inbox) => identify(message.id, inbox, { onProgress: message.progress }));
      break;
    case 'fingerprint':
      start(message.id, (inbox) => fingerprint(message.id, inbox));
      break;
    case 'chunk':
      inboxes.get(message.id)?.push(message.bytes);
      break;
    case 'end':
      inboxes.get(message.id)?.push(null);
      break;
  }
});
