import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  type FormattedExecutionResult,
  getOperationAST,
  Kind,
} from 'graphql';
import WebSocket from 'ws';
import type { GraphQLContext } from './context.js';
import { LiveValue, type Stamped, type ValueConsumer } from './live-value.js';

/**
 * Subscription fields whose every event reads the same for everyone (no viewer in the answer): a mix's live count.
 * Their events are executed once per process per distinct operation, not once per socket.
 */
const SAME_FOR_EVERYONE = new Set(['mixListenerCount']);

/** The operation's text and variables, plus the viewer unless nothing it asks depends on who asks. */
function sharingKey(args: ExecutionArgs): string {
  const operation = getOperationAST(args.document, args.operationName);
  const selections = operation?.selectionSet.selections ?? [];
  const sameForEveryone =
    selections.length > 0 && selections.every((selection) => selection.kind === Kind.FIELD && SAME_FOR_EVERYONE.has(selection.name.value));
  const viewer = sameForEveryone ? '' : ((args.contextValue as GraphQLContext | undefined)?.viewer?.id ?? 'anonymous');
  return JSON.stringify([textOf(args.document), args.operationName ?? null, args.variableValues ?? null, viewer]);
}

const texts = new WeakMap<DocumentNode, string>();
/** The text the client sent (kept by the parser), so no document is printed again per event. */
function textOf(document: DocumentNode): string {
  let text = texts.get(document);
  if (text === undefined) {
    text = document.loc?.source.body ?? JSON.stringify(document);
    texts.set(document, text);
  }
  return text;
}

/**
 * One value per event payload and operation key, made by the first to ask (the PubSub hands every listener in a
 * process the same payload object, so everyone an event reaches shares it; it goes with the payload).
 */
function perEvent<T>(): (payload: object, key: string, make: () => T) => T {
  const byEvent = new WeakMap<object, Map<string, T>>();
  return (payload, key, make) => {
    let values = byEvent.get(payload);
    if (!values) {
      values = new Map();
      byEvent.set(payload, values);
    }
    let value = values.get(key);
    if (value === undefined) {
      value = make();
      values.set(key, value);
    }
    return value;
  };
}

const sharedResult = perEvent<Promise<ExecutionResult>>();

function executeShared(args: ExecutionArgs, key: string, payload: unknown): Promise<ExecutionResult> {
  const run = async () => execute({ ...args, rootValue: payload });
  return typeof payload !== 'object' || payload === null ? run() : sharedResult(payload, key, run);
}

/** What graphql-ws's onNext makes of a result before it goes out (errors formatted as over HTTP). */
export type FormatResult = (result: ExecutionResult) => ExecutionResult | FormattedExecutionResult;

/**
 * A WebSocket text frame as a server sends it (RFC 6455 section 5.2: FIN, opcode 1, unmasked), its payload `head` then
 * `tail`, in one buffer: one write to the socket. Under 4 KB it is a slice of Node's buffer pool, not an allocation.
 */
export function textFrame(head: Buffer, tail: Buffer): Buffer {
  const length = head.length + tail.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt16BE(0, 2);
    frame.writeUIntBE(length, 4, 6);
  }
  head.copy(frame, headerLength);
  tail.copy(frame, headerLength + head.length);
  return frame;
}

/**
 * One event's `next` message for one operation (its end, `<payload>}`: each socket's message is its own start and
 * this), and the subscriptions waiting to send it. Everyone an event reaches takes it within one dispatch; they are
 * written to in one pass once the message is serialised (a microtask later, or once its execution settles).
 */
class Delivery {
  private tail: Buffer | null = null;
  private failure: { error: unknown } | null = null;
  private takers: PushedResults[] = [];
  private flushing = false;

  /** `make` executes and serialises the message: at once, or by the promise it returns. */
  constructor(make: () => Buffer | Promise<Buffer>) {
    let message: Buffer | Promise<Buffer>;
    try {
      message = make();
    } catch (error) {
      this.failure = { error };
      return;
    }
    if (!(message instanceof Promise)) {
      this.tail = message;
      return;
    }
    message.then(
      (tail) => {
        this.tail = tail;
        this.flush();
      },
      (error: unknown) => {
        this.failure = { error };
        this.flush();
      },
    );
  }

  add(taker: PushedResults): void {
    this.takers.push(taker);
    // A pass is due already, or comes once the message is made.
    if (this.flushing || (this.tail === null && this.failure === null)) return;
    this.flushing = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.flushing = false;
    const takers = this.takers;
    this.takers = [];
    for (const taker of takers) {
      if (this.failure) taker.fail(this.failure.error);
      else if (this.tail) taker.send(this.tail);
    }
  }
}

const sharedDelivery = perEvent<Delivery>();

/** The event's message for this operation, made by the first subscription to take the event (nothing made per socket). */
function deliveryOf(args: ExecutionArgs, key: string, payload: Stamped, format: FormatResult): Delivery {
  return sharedDelivery(
    payload,
    key,
    () =>
      new Delivery(() => {
        const toTail = (result: ExecutionResult) => Buffer.from(`${JSON.stringify(format(result))}}`);
        const result = execute({ ...args, rootValue: payload });
        return result instanceof Promise ? result.then(toTail) : toTail(result);
      }),
  );
}

/** What PushedResults needs of a socket (a `ws` WebSocket). */
export interface MessageSocket {
  readonly readyState: number;
  /** The extensions agreed with the client: with permessage-deflate, ws compresses (and queues) what it sends. */
  readonly extensions: string;
}

/** The connection under a socket (the upgrade request's `net.Socket`): where its frames are written. */
export interface FrameStream {
  /** Bytes written but not yet taken by the kernel. */
  readonly writableLength: number;
  write(frame: Buffer, written?: (error?: Error | null) => void): boolean;
}

/**
 * A live value's results written straight to its connection: graphql-ws's `next` messages, byte for byte, in the text
 * frames ws would make, without its per-message path (an iterator step, hooks, a JSON.stringify, a promise and a
 * frame header written apart per socket). A count change watched by 20,000 sockets is executed and serialised once;
 * each socket costs one buffer and one write. graphql-ws still owns the subscription: its loop waits on next(), which
 * settles only when the subscription ends (completed, the socket gone, or the current value unreadable: then with
 * that error), and it sends `complete` or `error` as ever. Until deliverTo is called (graphql-ws's onOperation hook),
 * and on a socket with permessage-deflate, the results are pulled through next() the usual way.
 *
 * A client that reads slowly holds little: a message written while earlier bytes still wait in the process is the
 * last until they are written; newer values wait in the live value, only the newest. One that stops reading is
 * closed by graphql-ws's keep-alive (no pong within 12 s of a ping).
 */
export class PushedResults implements AsyncIterableIterator<ExecutionResult>, ValueConsumer<Stamped> {
  private socket: MessageSocket | null = null;
  private stream: FrameStream | null = null;
  private head = Buffer.alloc(0);
  private format: FormatResult = (result) => result;
  /** A message is on its way (the connection behind on its writes, or a result still being executed). */
  private writing = false;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private waiting: { resolve(result: IteratorResult<ExecutionResult>): void; reject(error: unknown): void } | null = null;

  constructor(
    private readonly source: LiveValue<Stamped>,
    private readonly args: ExecutionArgs,
    private readonly key: string,
  ) {}

  get busy(): boolean {
    return this.writing;
  }

  /** From now on each value goes to `stream`, under `socket`, as subscription `id`'s next message, formatted by `format`. */
  deliverTo(socket: MessageSocket, stream: FrameStream, id: string, format: FormatResult): void {
    if (socket.extensions !== '') return;
    this.socket = socket;
    this.stream = stream;
    this.format = format;
    this.head = Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
    this.source.pushTo(this);
  }

  take(value: Stamped): void {
    this.writing = true;
    deliveryOf(this.args, this.key, value, this.format).add(this);
  }

  /** The message `<head><tail>` goes out (see Delivery); then the newest value that came meanwhile, if any. */
  send(tail: Buffer): void {
    this.writing = false;
    const socket = this.socket;
    const stream = this.stream;
    if (this.ended || !socket || !stream || socket.readyState !== WebSocket.OPEN) return;
    const frame = textFrame(this.head, tail);
    if (stream.writableLength === 0) stream.write(frame);
    else {
      // The client is behind: this message waits in the process, newer values wait in the live value.
      this.writing = true;
      stream.write(frame, () => {
        this.writing = false;
        if (!this.ended) this.source.resume();
      });
      return;
    }
    this.source.resume();
  }

  fail(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    void this.source.return();
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting.reject(error);
    else this.failure = { error };
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    if (!this.socket && !this.ended) {
      const event = await this.source.next();
      if (event.done) return { value: undefined, done: true };
      return { value: await executeShared(this.args, this.key, event.value), done: false };
    }
    if (this.failure) throw this.failure.error;
    if (this.ended) return { value: undefined, done: true };
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  private stop(): void {
    if (!this.ended) {
      this.ended = true;
      void this.source.return();
    }
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({ value: undefined, done: true });
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.stop();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<ExecutionResult>> {
    this.stop();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * graphql-js `subscribe`, except that subscribers of the same event with the same operation (and viewer, where the
 * answer depends on it) share one execution: a thousand sockets on one mix's count cost one execution per change.
 * A live value's results are pushed (see PushedResults).
 */
export async function subscribeSharingResults(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const key = sharingKey(args);
  if (stream instanceof LiveValue) return new PushedResults(stream, args, key);
  const events = stream[Symbol.asyncIterator]();
  const mapped: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const event = await events.next();
      if (event.done) return { value: undefined, done: true };
      return { value: await executeShared(args, key, event.value), done: false };
    },
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      await events.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}
