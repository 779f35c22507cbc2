import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { AuthResolver } from '../modules/auth/auth.resolver.js';
import { UsersResolver } from '../modules/users/users.resolver.js';

export const resolvers = [AuthResolver, UsersResolver] as const;

export function buildGraphQLSchema(pubSub?: PubSub): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, pubSub, validate: false, emitSchemaFile: false });
}
