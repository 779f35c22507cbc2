import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import type { Services } from '../../services.js';
import { registerCors, socketOriginAllowed } from './cors.js';
import { embedRoutes } from './embed.js';
import { explorerLandingPage } from './explorer.js';
import { healthRoutes } from './health.js';
import { registerOpenApi } from './openapi.js';
import { ApiRateLimits, registerRateLimits, socketRateLimit, spendGraphqlCost } from './rate-limits.js';

/**
 * What makes the API one that other people's tools can build on: CORS, rate limits, health probes, the REST reference
 * (/api/openapi.json, /docs), the GraphQL explorer (/graphql) and the embed player (/embed/mix/{id}). Registered
 * before the routes, so its hooks see every request and the OpenAPI document every route.
 */
export async function registerPublicApi(app: FastifyInstance, services: Services, webRoot: string | undefined) {
  const { config } = services;
  await registerCors(app, config);
  const limits = new ApiRateLimits(config, services.orm.config.get('clientUrl') ?? '');
  registerRateLimits(app, services, limits);
  await app.register(healthRoutes(services));
  await registerOpenApi(app, config);
  await app.register(embedRoutes(services, webRoot));
  return {
    apolloPlugins: (): ApolloServerPlugin<GraphQLContext>[] => [explorerLandingPage(webRoot)],
    spendGraphqlCost: spendGraphqlCost(limits),
    socketRateLimit: (schema: GraphQLSchema) => socketRateLimit(schema, limits),
    verifySocketOrigin: socketOriginAllowed(config),
  };
}
