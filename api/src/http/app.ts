import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { GraphQLError, parse, specifiedRules, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { bearerToken, type GraphQLContext, viewerFromToken } from '../graphql/context.js';
import { formatGraphQLError } from '../graphql/errors.js';
import { costLimitPlugin, depthLimitRule } from '../graphql/limits.js';
import { createPubSubFor } from '../graphql/pubsub.js';
import { buildGraphQLSchema } from '../graphql/schema.js';
import { Topics } from '../graphql/topics.js';
import { registerRestRoutes } from '../rest/index.js';
import type { Services } from '../services.js';
import { DomainError } from '../shared/errors.js';
import { sendError } from './errors.js';
import { mediaDeliveryRoutes } from './media-delivery.js';

export interface AppOptions {
  logger?: FastifyBaseLogger;
  /** The built web app (web/dist); served at / with a fallback to index.html for client routes. */
  webRoot?: string;
}

async function graphqlViewer(services: Services, token: string | null) {
  try {
    return await viewerFromToken(services, token);
  } catch (error) {
    if (error instanceof DomainError)
      throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: error.status } } });
    throw error;
  }
}

/** The one HTTP server: GraphQL (HTTP and graphql-ws) at /graphql, REST at /api, media at /media, the web app at /. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1_048_576,
  });
  app.setErrorHandler((error, request, reply) => sendError(error as Error, request, reply));

  await app.register(fastifyMultipart, { limits: { fields: 20, fileSize: 320 * 1024 * 1024, files: 4, parts: 30 } });

  const { pubSub, close: closePubSub } = createPubSubFor(config.REDIS_URL);
  const unsubscribers = [
    services.users.onProfileChanged((user) => pubSub.publish(Topics.ProfileUpdated, { id: user.id, userName: user.userName ?? null })),
    services.listens.onListenerCountChanged((event) => pubSub.publish(Topics.ListenerCount, event)),
  ];
  const schema = await buildGraphQLSchema(pubSub);
  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    csrfPrevention: true,
    introspection: true,
    includeStacktraceInErrorResponses: !config.isProduction,
    validationRules: [depthLimitRule(config.GRAPHQL_MAX_DEPTH)],
    formatError: formatGraphQLError(config.isProduction),
    // Responses are not cached by Apollo (no @cacheControl hints); computing cache policy per field only costs time.
    plugins: [ApolloServerPluginCacheControlDisabled(), fastifyApolloDrainPlugin(app), costLimitPlugin(schema, config.GRAPHQL_MAX_COST)],
  });
  await apollo.start();
  await app.register(fastifyApollo(apollo), {
    path: '/graphql',
    context: async (request) => ({
      viewer: await graphqlViewer(services, bearerToken(request.headers.authorization)),
      ip: request.ip,
      services,
    }),
  });

  const wsServer = new WebSocketServer({ server: app.server, path: '/graphql' });
  const wsCleanup = useServer<{ authorization?: string; token?: string }>(
    {
      schema,
      onSubscribe: (_ctx, _id, payload) => {
        try {
          const problems = validate(schema, parse(payload.query), [...specifiedRules, depthLimitRule(config.GRAPHQL_MAX_DEPTH)]);
          return problems.length > 0 ? problems : undefined;
        } catch (error) {
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
      },
      context: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const token = bearerToken(params.authorization) ?? (typeof params.token === 'string' ? params.token : null);
        return {
          viewer: await viewerFromToken(services, token).catch(() => null),
          ip: ctx.extra.request.socket.remoteAddress ?? 'unknown',
          services,
        } satisfies GraphQLContext;
      },
    },
    wsServer,
  );

  await app.register(registerRestRoutes(services), { prefix: '/api' });

  await app.register(mediaDeliveryRoutes(services));

  const webRoot = options.webRoot;
  const hasWeb = webRoot !== undefined && existsSync(join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webRoot, prefix: '/', wildcard: false, index: ['index.html'] });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    // Client routes have no file extension; a missing asset (say a chunk from an older build) must be a 404, not index.html.
    const isClientRoute = !/^\/(api|graphql|media|assets)(\/|$)/.test(path) && !/\.[A-Za-z0-9]+$/.test(path);
    if (isClientRoute && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').sendFile('index.html', webRoot as string);
    }
    return reply.status(404).send({ error: 'Not found', message: 'Not found', status: 404 });
  });

  app.addHook('onClose', async () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
    await wsCleanup.dispose();
    wsServer.close();
    closePubSub();
  });
  return app;
}
