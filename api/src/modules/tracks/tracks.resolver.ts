import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import { PageArgs } from '../../graphql/connection.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { NotFoundError } from '../../shared/errors.js';
import { requireViewer } from '../../shared/viewer.js';
import { TrackConnectionObject, TrackLookupRowInput, TrackObject } from './track.types.js';

/** The public catalogue: browsing, one track, and the upload's lookup of typed rows. */
@Resolver(() => TrackObject)
export class TracksResolver {
  @Query(() => TrackConnectionObject, {
    description:
      'Catalogue tracks (typed-by-hand ones aside) in catalogue order; with `search`, those holding every word of it ' +
      '(case, accents and punctuation aside). No sign-in needed.',
  })
  async tracks(
    @Ctx() ctx: GraphQLContext,
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Args(() => PageArgs) paging: PageArgs,
  ): Promise<TrackConnectionObject> {
    return TrackConnectionObject.from(await ctx.services.tracks.search(search, paging));
  }

  @Query(() => TrackObject, { nullable: true, description: 'A track (catalogue or typed by hand); null when there is none.' })
  async track(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<TrackObject | null> {
    try {
      return TrackObject.from(await ctx.services.tracks.byId(id));
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  @Query(() => [[TrackObject]], {
    description:
      'The upload’s track lookup (REST: POST /api/track/acquire-track-information; members only): for each typed row (1 to 30, each ' +
      'with artist and title), up to 5 catalogue tracks, best first, in row order; an empty list means no options found. With ' +
      'the id of the uploaded mix (its owner only), each row’s candidate recognised in the mix comes first.',
  })
  async lookupTracks(
    @Arg('tracks', () => [TrackLookupRowInput]) tracks: TrackLookupRowInput[],
    @Ctx() ctx: GraphQLContext,
    @Arg('mixId', () => ID, { nullable: true }) mixId: string | null,
  ): Promise<TrackObject[][]> {
    const viewer = requireViewer(ctx.viewer);
    const candidates = await ctx.services.tracks.lookup(tracks, mixId === null || mixId === undefined ? undefined : { viewer, mixId });
    return candidates.map((row) => row.map(TrackObject.from));
  }
}
