import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { AuthResolver } from '../modules/auth/auth.resolver.js';
import { CreatorsResolver, TrackHoldersResolver, UserVerifiedNamesResolver } from '../modules/creators/creators.resolver.js';
import { FollowsResolver } from '../modules/follows/follows.resolver.js';
import { LibraryResolver } from '../modules/library/library.resolver.js';
import { ListensResolver } from '../modules/listens/listens.resolver.js';
import { MixMediaResolver } from '../modules/media/media.resolver.js';
import { MixesResolver } from '../modules/mixes/mixes.resolver.js';
import { TrackMixesResolver } from '../modules/mixes/track-mixes.resolver.js';
import { ModerationResolver } from '../modules/moderation/moderation.resolver.js';
import { NotificationsResolver } from '../modules/notifications/notifications.resolver.js';
import { CreatorEarningsResolver } from '../modules/payments/creator-earnings.resolver.js';
import { PaymentsResolver } from '../modules/payments/payments.resolver.js';
import { RecognitionResolver } from '../modules/recognition/recognition.resolver.js';
import { RecommendationsResolver } from '../modules/recommendations/recommendations.resolver.js';
import { RolesResolver } from '../modules/roles/roles.resolver.js';
import { SearchResolver } from '../modules/search/search.resolver.js';
import { TracksResolver } from '../modules/tracks/tracks.resolver.js';
import { MixModerationStateResolver, ModerationItemTrustResolver, TrustResolver } from '../modules/trust/trust.resolver.js';
import { UsersResolver } from '../modules/users/users.resolver.js';
import { NodeResolver } from './node.resolver.js';

export const resolvers = [
  AuthResolver,
  UsersResolver,
  MixMediaResolver,
  MixesResolver,
  PaymentsResolver,
  CreatorEarningsResolver,
  LibraryResolver,
  FollowsResolver,
  ListensResolver,
  TracksResolver,
  TrackMixesResolver,
  RecognitionResolver,
  RolesResolver,
  ModerationResolver,
  CreatorsResolver,
  UserVerifiedNamesResolver,
  TrackHoldersResolver,
  NodeResolver,
  NotificationsResolver,
  RecommendationsResolver,
  SearchResolver,
  TrustResolver,
  ModerationItemTrustResolver,
  MixModerationStateResolver,
] as const;

export function buildGraphQLSchema(pubSub?: PubSub): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, pubSub, validate: false, emitSchemaFile: false });
}
