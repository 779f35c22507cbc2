import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
  getOperationAST,
  Kind,
} from 'graphql';
import type { GraphQLContext } from './context.js';

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

/**
 * graphql-js `subscribe`, except that subscribers of the same event with the same operation (and viewer, where the
 * answer depends on it) share one execution: a thousand sockets on one mix's count cost one execution per change.
 */
export async function subscribeSharingResults(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const events = stream[Symbol.asyncIterator]();
  const key = sharingKey(args);
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
