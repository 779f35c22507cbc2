import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import pino from 'pino';
import { WebSocketServer } from 'ws';
import { CompiledExecution } from '../graphql/compiled-execution.js';
import { type GraphQLContext, socketCredentials } from '../graphql/context.js';
import { formatGraphQLError, formatWebSocketErrors } from '../graphql/errors.js';
import { httpCachePlugin, registerGraphQLEtags } from '../graphql/http-cache.js';
import { operationLimitsPlugin, prepareWebSocketOperation } from '../graphql/limits.js';
import { createPubSubFor } from '../graphql/pubsub.js';
import { buildGraphQLSchema } from '../graphql/schema.js';
import { type FormatResult, PushedResults, subscribeSharingResults } from '../graphql/shared-results.js';
import { SignedInSockets } from '../graphql/signed-in-sockets.js';
import { Topics } from '../graphql/topics.js';
import { OneLinePerRequest } from '../logger.js';
import { registerRestRoutes } from '../rest/index.js';
import type { Services } from '../services.js';
import { DomainError } from '../shared/errors.js';
import type { ExecuteQuery } from '../shared/server-render.js';
import type { Viewer } from '../shared/viewer.js';
import { clientAddressOf, proxyTrustOf } from './client-address.js';
import { sendError } from './errors.js';
import { isMediaRequest, mediaDelivery, mediaDeliveryRoutes } from './media-delivery.js';
import { registerPublicApi } from './public-api/index.js';
import { guardRequestBody, guardServer, type RequestGuardOptions } from './request-guards.js';
import { scriptNonceOf, securityHeaderOptions } from './security-headers.js';
import { serverRenderer } from './server-render.js';
import { shareCardFor, sharedKindOf, unavailableForLegalReasons, webPages } from './share-meta.js';
import { testModePages } from './test-mode-pages.js';
import { viewerOf } from './viewer.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How many GraphQL subscriptions in this process hear `topic` (see ClosablePubSub.listenerCount). */
    subscriptionListeners(topic: string): number;
  }
}

/** The largest request body, and the largest message on a GraphQL socket: 1 MiB. */
const MESSAGE_LIMIT_BYTES = 1_048_576;
export interface AppOptions {
  logger?: FastifyBaseLogger;
  /** The built web app (web/dist); served at / with a fallback to index.html for client routes. */
  webRoot?: string;
}

async function graphqlViewer(services: Services, request: FastifyRequest) {
  try {
    return await viewerOf(services, request);
  } catch (error) {
    if (error instanceof DomainError)
      throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: error.status } } });
    throw error;
  }
}

/** The one HTTP server: GraphQL (HTTP and graphql-ws) at /graphql, REST at /api, media at /media, the web app at /. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const deliverMedia = mediaDelivery(services, options.logger ?? pino({ enabled: false }));
  const proxyTrust = proxyTrustOf(config.TRUST_PROXY);
  const guards: RequestGuardOptions = {
    bodyIdleMs: config.REQUEST_BODY_TIMEOUT_MS,
    uploadIdleMs: config.UPLOAD_IDLE_TIMEOUT_MS,
    headersTimeoutMs: config.REQUEST_HEADERS_TIMEOUT_MS,
    // Behind a proxy every client arrives from the proxy's address: the proxy caps connections there.
    maxConnectionsPerAddress: proxyTrust ? 0 : config.MAX_CONNECTIONS_PER_ADDRESS,
  };
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    logController: new OneLinePerRequest(),
    trustProxy: proxyTrust,
    bodyLimit: MESSAGE_LIMIT_BYTES,
    // Media requests go straight to their handler; everything else through Fastify (with the timeouts it would set).
    serverFactory: (fastifyHandler, settings) => {
      // Slow headers are checked every second, not every 30 s (Node's default), so a 408 comes when it is due.
      const server = createServer({ connectionsCheckingInterval: 1000 }, (request, response) => {
        if (isMediaRequest(request)) return void deliverMedia(request, response);
        guardRequestBody(request, response, guards);
        fastifyHandler(request, response);
      });
      // Fastify hands over its resolved options, defaults included.
      const timeouts = settings as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number };
      server.keepAliveTimeout = timeouts.keepAliveTimeout;
      server.requestTimeout = timeouts.requestTimeout;
      server.setTimeout(timeouts.connectionTimeout);
      guardServer(server, guards);
      return server;
    },
  });
  app.setErrorHandler((error, request, reply) => sendError(error as Error, request, reply));
  // Security headers on every answer Fastify gives (media set theirs in media-delivery.ts), from one definition.
  await app.register(fastifyHelmet, securityHeaderOptions(config));

  // JSON and HTML answers go out compressed (a feed page shrinks about tenfold); audio and images are compressed already
  // (their types are not compressible), and the web app's files are sent from their precompressed copies.
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(fastifyMultipart, { limits: { fields: 20, fileSize: 320 * 1024 * 1024, files: 4, parts: 30 } });
  const publicApi = await registerPublicApi(app, services, options.webRoot);

  const events = createPubSubFor(config.REDIS_URL, services.orm.config.get('clientUrl') ?? '', app.log);
  await events.ready();
  const { pubSub, listen } = events;
  app.decorate('subscriptionListeners', events.listenerCount);
  const unsubscribers = [
    services.users.onProfileChanged((user) => pubSub.publish(Topics.ProfileUpdated, { id: user.id, userName: user.userName ?? null })),
    services.listens.counts.onChange((event) => pubSub.publish(Topics.ListenerCount, event.mixId, event)),
    services.notifications.onFollowEvent((event) => pubSub.publish(Topics.FollowEvent, event.recipientId, event)),
    // Both members' follower or following counts changed: their profiles' watchers hear it.
    services.follows.onFollowChanged(({ follower, followee }) => {
      for (const member of [followee, follower]) pubSub.publish(Topics.ProfileUpdated, { id: member.id, userName: member.userName });
    }),
    services.recognitionJobs.onProgress((event) => pubSub.publish(Topics.RecognitionProgress, event)),
  ];
  const schema = await buildGraphQLSchema(pubSub);
  const limits = { maxDepth: config.GRAPHQL_MAX_DEPTH, maxCost: config.GRAPHQL_MAX_COST };
  const execution = config.GRAPHQL_COMPILED_EXECUTION ? { gateway: new CompiledExecution(schema).gateway() } : { schema };
  const apollo = new ApolloServer<GraphQLContext>({
    ...execution,
    csrfPrevention: true,
    introspection: true,
    includeStacktraceInErrorResponses: !config.isProduction,
    // Apollo indents every answer by default: more bytes to compress and more CPU, for clients that only parse it.
    stringifyResult: (result) => JSON.stringify(result),
    formatError: formatGraphQLError(config.isProduction),
    // Responses are not cached by Apollo (no @cacheControl hints); computing cache policy per field only costs time.
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      fastifyApolloDrainPlugin(app),
      operationLimitsPlugin(schema, limits, publicApi.spendGraphqlCost),
      ...publicApi.apolloPlugins(),
      httpCachePlugin(),
    ],
  });
  await apollo.start();
  registerGraphQLEtags(app, '/graphql');
  await app.register(fastifyApollo(apollo), {
    path: '/graphql',
    context: async (request) => ({
      viewer: await graphqlViewer(services, request),
      ip: request.ip,
      services,
      pubSub,
      listen,
    }),
  });

  const formatSocketErrors = formatWebSocketErrors(config.isProduction);
  const formatResult: FormatResult = (result) => (result.errors ? { ...result, errors: formatSocketErrors(result.errors) } : result);
  // A socket's message has the HTTP body's limit: ws would otherwise buffer up to 100 MiB of one frame per socket.
  const wsServer = new WebSocketServer({
    server: app.server,
    path: '/graphql',
    verifyClient: publicApi.verifySocketOrigin,
    maxPayload: MESSAGE_LIMIT_BYTES,
  });
  const socketRateLimit = publicApi.socketRateLimit(schema);
  // Who each socket is: decided once, when it connects, from the same token as over HTTP; it closes when that ends.
  const socketViewers = new WeakMap<object, Viewer | null>();
  const signedInSockets = new SignedInSockets(services.sessions, app.log);
  const wsCleanup = useServer(
    {
      schema,
      // No token: anonymous (public subscriptions only). A malformed, forged or expired token, or an ended session,
      // closes the socket with 4403 Forbidden rather than quietly treating the client as nobody.
      onConnect: async (ctx) => {
        const credentials = socketCredentials(ctx.connectionParams);
        if (credentials.kind === 'malformed') return false;
        if (credentials.kind === 'anonymous') {
          socketViewers.set(ctx, null);
          return true;
        }
        try {
          socketViewers.set(ctx, await signedInSockets.admit(ctx.extra.socket, credentials.token));
          return true;
        } catch (error) {
          if (error instanceof DomainError) return false;
          throw error;
        }
      },
      subscribe: subscribeSharingResults,
      onSubscribe: (ctx, _id, payload) => {
        const prepared = prepareWebSocketOperation(schema, payload, limits);
        if (!('document' in prepared)) return prepared;
        const address = clientAddressOf(ctx.extra.request, proxyTrust);
        return socketRateLimit({ viewer: socketViewers.get(ctx) ?? null, address }, prepared);
      },
      // A live value's results go straight to the socket's connection, in the frames and messages onNext would make.
      onOperation: (ctx, id, _payload, _args, result) => {
        if (result instanceof PushedResults) result.deliverTo(ctx.extra.socket, ctx.extra.request.socket, id, formatResult);
      },
      onError: (_ctx, _id, _payload, errors) => formatSocketErrors(errors),
      onNext: (_ctx, _id, _payload, _args, result) => formatResult(result),
      context: (ctx) =>
        ({
          viewer: socketViewers.get(ctx) ?? null,
          ip: clientAddressOf(ctx.extra.request, proxyTrust),
          services,
          pubSub,
          listen,
        }) satisfies GraphQLContext,
    },
    wsServer,
  );

  await app.register(registerRestRoutes(services), { prefix: '/api' });

  await app.register(mediaDeliveryRoutes(deliverMedia));
  await app.register(testModePages(services));

  const webRoot = options.webRoot;
  const hasWeb = webRoot !== undefined && existsSync(join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webRoot, prefix: '/', wildcard: false, index: ['index.html'], preCompressed: true });
  }
  const pages = hasWeb && webRoot ? webPages(webRoot) : null;
  const renderPage = hasWeb && webRoot ? serverRenderer(webRoot, app.log) : null;
  // What anybody may see of a shared page, rendered on the server from the same GraphQL schema the browser asks.
  const renderShared = async (path: string, ip: string) => {
    if (!renderPage) return null;
    const execute: ExecuteQuery = async (query, variables) => {
      const response = await apollo.executeOperation({ query, variables }, { contextValue: { viewer: null, ip, services } });
      return response.body.kind === 'single' && !response.body.singleResult.errors ? (response.body.singleResult.data ?? null) : null;
    };
    return renderPage(path, execute);
  };
  const notFound = { error: 'Not found', message: 'Not found', status: 404 };
  // Client routes (no file extension, outside the API's prefixes) get the web app; a missing asset (say a chunk from an
  // older build) is a 404, not index.html. A route, not the not-found handler, so the answer is compressed.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      const isClientRoute = !/^\/(api|graphql|media|assets|docs|embed)(\/|$)/.test(path) && !/\.[A-Za-z0-9]+$/.test(path);
      if (!isClientRoute || !pages) return reply.status(404).send(notFound);
      if (await unavailableForLegalReasons(services, path))
        return reply
          .status(451)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(await pages.unavailable());
      // Shared mix and profile links unfurl in chat apps: their page carries OpenGraph and Twitter card tags.
      const card = await shareCardFor(services, path);
      const sharedKind = card ? null : sharedKindOf(path);
      if (sharedKind)
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(await pages.notFound(sharedKind));
      const html = card
        ? await pages.shared(card, config.PUBLIC_URL, await renderShared(path, request.ip), scriptNonceOf(reply.raw))
        : await pages.index();
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    },
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(notFound));

  app.addHook('onClose', async () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
    signedInSockets.dispose();
    await wsCleanup.dispose();
    wsServer.close();
    await events.close();
  });
  return app;
}
