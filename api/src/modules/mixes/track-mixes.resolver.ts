import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../graphql/connection.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { Lookup } from '../../graphql/limits.js';
import { TrackObject } from '../tracks/track.types.js';
import { TrackMixConnectionObject } from './track-mixes.types.js';

/** The mixes module's field on Track: where a track is played. */
@Resolver(() => TrackObject)
export class TrackMixesResolver {
  @Lookup()
  @FieldResolver(() => TrackMixConnectionObject, {
    description: 'The published mixes whose tracklist holds this track, newest first, each with where it starts.',
  })
  async mixes(
    @Root() track: TrackObject,
    @Ctx() ctx: GraphQLContext,
    @Args(() => PageArgs) paging: PageArgs,
  ): Promise<TrackMixConnectionObject> {
    const viewerId = ctx.viewer?.id ?? null;
    const page = await ctx.services.mixes.byTrack(track.id, paging, viewerId);
    return TrackMixConnectionObject.from(ctx.services, page, viewerId);
  }
}
