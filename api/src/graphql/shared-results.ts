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

/** Results per event payload (the PubSub hands every listener in a process the same payload object). */
const resultsByEvent = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();

function executeShared(args: ExecutionArgs, key: string, payload: unknown): Promise<ExecutionResult> {
  const run = async () => execute({ ...args, rootValue: payload });
  if (typeof payload !== 'object' || payload === null) return run();
  let results = resultsByEvent.get(payload);
  if (!results) {
    results = new Map();
    resultsByEvent.set(payload, results);
  }
  let result = results.get(key);
  if (!result) {
    result = run();
    results.set(key, result);
  }
  return result;
}

/** What graphql-ws's onNext makes of a result before it goes out (errors formatted as over HTTP). */
export type FormatResult = (result: ExecutionResult) => ExecutionResult | FormattedExecutionResult;

/** The end of a `next` message for an event and operation, `<payload>}`: each socket's message is its own start and this. */
const tailsByEvent = new WeakMap<object, Map<string, Buffer | Promise<Buffer>>>();

function tailOf(args: ExecutionArgs, key: string, payload: unknown, format: FormatResult): Buffer | Promise<Buffer> {
  const make = () => {
    const toTail = (result: ExecutionResult) => Buffer.from(`${JSON.stringify(format(result))}}`);
    const result = execute({ ...args, rootValue: payload });
    return result instanceof Promise ? result.then(toTail) : toTail(result);
  };
  if (typeof payload !== 'object' || payload === null) return make();
  let tails = tailsByEvent.get(payload);
  if (!tails) {
    tails = new Map();
    tailsByEvent.set(payload, tails);
  }
  let tail = tails.get(key);
  if (!tail) {
    tail = make();
    tails.set(key, tail);
  }
  return tail;
}

const TEXT_FRAME = { binary: false };

/** What PushedResults needs of a socket (a `ws` WebSocket). */
export interface MessageSocket {
  readonly readyState: number;
  /** Bytes written but not yet handed to the kernel. */
  readonly bufferedAmount: number;
  send(data: Buffer, options: { binary: boolean }, written?: (error?: Error) => void): void;
}

/**
 * A live value's results written straight to its socket: graphql-ws's `next` messages, byte for byte, without its
 * per-message path (an iterator step, hooks, a JSON.stringify and a promise per socket). A count change watched by
 * 20,000 sockets is executed and serialised once; each socket costs a buffer copy and a write. graphql-ws still owns
 * the subscription: its loop waits on next(), which settles only when the subscription ends (completed, the socket
 * gone, or the current value unreadable: then with that error), and it sends `complete` or `error` as ever.
 * Until deliverTo is called (graphql-ws's onOperation hook) the results are pulled through next() the usual way.
 */
export class PushedResults implements AsyncIterableIterator<ExecutionResult>, ValueConsumer<Stamped> {
  private socket: MessageSocket | null = null;
  private head = Buffer.alloc(0);
  private format: FormatResult = (result) => result;
  /** A message is on its way (a socket behind on its writes, or a result still being executed). */
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

  /** From now on each value goes to `socket` as subscription `id`'s next message, formatted by `format`. */
  deliverTo(socket: MessageSocket, id: string, format: FormatResult): void {
    this.socket = socket;
    this.format = format;
    this.head = Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
    this.source.pushTo(this);
  }

  take(value: Stamped): void {
    const tail = tailOf(this.args, this.key, value, this.format);
    if (!(tail instanceof Promise)) {
      this.write(tail);
      return;
    }
    this.writing = true;
    tail.then(
      (bytes) => {
        this.writing = false;
        this.write(bytes);
        this.source.resume();
      },
      (error: unknown) => this.fail(error),
    );
  }

  private write(tail: Buffer): void {
    const socket = this.socket;
    if (this.ended || !socket || socket.readyState !== WebSocket.OPEN) return;
    const message = Buffer.concat([this.head, tail], this.head.length + tail.length);
    if (socket.bufferedAmount === 0) {
      socket.send(message, TEXT_FRAME);
      return;
    }
    // The client is behind: this message waits in the socket, newer values wait here (only the newest of them).
    this.writing = true;
    socket.send(message, TEXT_FRAME, () => {
      this.writing = false;
      if (!this.ended) this.source.resume();
    });
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
