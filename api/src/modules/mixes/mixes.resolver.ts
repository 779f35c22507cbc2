import { Arg, Args, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../graphql/connection.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { Lookup } from '../../graphql/limits.js';
import { FEED_MAX_RADIUS_KM } from '../../shared/domain.js';
import { NotFoundError } from '../../shared/errors.js';
import { requireViewer } from '../../shared/viewer.js';
import { LocationInput } from '../users/user.types.js';
import { TRACKLIST_VERSIONS_DEFAULT } from './mix.inputs.js';
import { mixLoaders } from './mix.loaders.js';
import { GenreEnum, MixConnectionObject, MixObject, MixTrackObject, TracklistEntryInput, TracklistVersionObject } from './mix.types.js';

@Resolver(() => MixObject)
export class MixesResolver {
  @Query(() => MixConnectionObject, {
    description:
      'Published mixes newest first, by genre and within radiusKm of a point (default: the viewer’s location). ' +
      'The maximum radius, 20,000 km, means everywhere and needs no point.',
  })
  async feed(
    @Ctx() ctx: GraphQLContext,
    @Arg('genre', () => GenreEnum, { defaultValue: 'all' }) genre: string,
    @Arg('radiusKm', () => Float, { defaultValue: FEED_MAX_RADIUS_KM }) radiusKm: number,
    @Arg('from', () => LocationInput, { nullable: true }) from: LocationInput | null,
    @Args(() => PageArgs) paging: PageArgs,
  ): Promise<MixConnectionObject> {
    const viewerId = ctx.viewer?.id ?? null;
    const page = await ctx.services.mixes.feed({ genre, radiusKm, from }, viewerId, paging);
    return MixConnectionObject.from(ctx.services, page, viewerId);
  }

  @Query(() => MixObject, {
    nullable: true,
    description:
      'A mix anyone may see (no sign-in needed); its owner also sees their draft, expired or held mix. Null when none; a taken-down mix answers the error UNAVAILABLE_FOR_LEGAL_REASONS (docs/trust.md).',
  })
  async mix(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<MixObject | null> {
    const viewerId = ctx.viewer?.id ?? null;
    try {
      const detail = await ctx.services.mixes.detail(id, viewerId);
      return MixObject.from(ctx.services, detail.mix, { distanceKm: detail.distanceKm, viewerId });
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  @Query(() => MixConnectionObject, { description: 'A member’s published mixes, newest first.' })
  async mixesByUser(
    @Ctx() ctx: GraphQLContext,
    @Arg('userName', () => String) userName: string,
    @Args(() => PageArgs) paging: PageArgs,
    @Arg('excludeMixId', () => ID, { nullable: true }) excludeMixId: string | null,
  ): Promise<MixConnectionObject> {
    const viewerId = ctx.viewer?.id ?? null;
    const page = await ctx.services.mixes.byUser(userName, viewerId, paging, excludeMixId);
    return MixConnectionObject.from(ctx.services, page, viewerId);
  }

  @Mutation(() => [MixTrackObject], {
    description: 'Replaces the tracklist of your mix with 5 to 30 entries, in order; unknown tracks become manual tracks.',
  })
  async setTracklist(
    @Arg('mixId', () => ID) mixId: string,
    @Arg('tracks', () => [TracklistEntryInput]) tracks: TracklistEntryInput[],
    @Ctx() ctx: GraphQLContext,
  ): Promise<MixTrackObject[]> {
    const entries = tracks.map((entry) => ({ ...entry, cover: entry.coverUrl }));
    const tracklist = await ctx.services.mixes.setTracklist(requireViewer(ctx.viewer).id, mixId, entries);
    return tracklist.map(MixTrackObject.from);
  }

  @Mutation(() => Boolean, { description: 'Deletes your mix from every list and page at once.' })
  async deactivateMix(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.mixes.deactivate(requireViewer(ctx.viewer).id, mixId);
    return true;
  }

  @FieldResolver(() => [MixTrackObject], { description: 'The tracklist in order; only its first entries with `first` (a card shows 4).' })
  async tracks(
    @Root() mix: MixObject,
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first: number | null,
  ): Promise<MixTrackObject[]> {
    return (await mixLoaders(ctx).tracks(first).load(mix.id)).map(MixTrackObject.from);
  }

  @Lookup()
  @FieldResolver(() => [TracklistVersionObject], {
    nullable: true,
    description:
      'For your own mix: its tracklist versions, newest first (at most `first`, 20 by default, 50 at most); each listen is paid ' +
      'to the tracks of the version in force when it started. Null for anyone else, and empty while a draft.',
  })
  async tracklistVersions(
    @Root() mix: MixObject,
    @Ctx() ctx: GraphQLContext,
    // A default rather than null, so the cost limit weighs the 20 versions an operation gets without asking.
    @Arg('first', () => Int, { defaultValue: TRACKLIST_VERSIONS_DEFAULT }) first: number,
  ): Promise<TracklistVersionObject[] | null> {
    const versions = await mixLoaders(ctx).versions(first).load({ id: mix.id, ownerId: mix.owner.id });
    return versions?.map(TracklistVersionObject.from) ?? null;
  }

  @FieldResolver(() => Date, {
    nullable: true,
    description: 'For your own draft: when it is removed with its files unless published or changed before then; null otherwise.',
  })
  draftKeptUntil(@Root() mix: MixObject, @Ctx() ctx: GraphQLContext): Promise<Date | null> | null {
    if (!mix.isOwner || mix.status !== 'draft') return null;
    return ctx.services.mixes.draftKeptUntil(ctx.viewer?.id ?? null, mix.id);
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'Whether the signed-in viewer saved this mix; null when signed out.' })
  savedByMe(@Root() mix: MixObject, @Ctx() ctx: GraphQLContext): Promise<boolean> | boolean | null {
    if (!ctx.viewer) return null;
    return mix.savedByViewer ?? mixLoaders(ctx).savedByViewer?.load(mix.id) ?? null;
  }
}
