import { Arg, Args, Ctx, FieldResolver, Float, ID, Mutation, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../graphql/connection.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { Lookup } from '../../graphql/limits.js';
import type { Viewer } from '../../shared/viewer.js';
import { requireViewer } from '../../shared/viewer.js';
import { MixConnectionObject, MixObject } from '../mixes/mix.types.js';
import { ViewerObject } from '../users/user.types.js';
import { libraryPolicy } from './library.policy.js';
import { SavedTrackObject } from './library.types.js';

/** The viewer's library lives on Viewer: the signed-in member reading their own. */
function requireSelf(ctx: GraphQLContext, viewer: ViewerObject): Viewer {
  const self = requireViewer(ctx.viewer);
  libraryPolicy.assertOwnLibrary(self, viewer.id);
  return self;
}

@Resolver(() => ViewerObject)
export class LibraryResolver {
  @Lookup()
  @FieldResolver(() => MixConnectionObject, { description: 'Your saved mixes that are still published, most recently saved first.' })
  async savedMixes(
    @Root() viewer: ViewerObject,
    @Ctx() ctx: GraphQLContext,
    @Args(() => PageArgs) paging: PageArgs,
  ): Promise<MixConnectionObject> {
    const self = requireSelf(ctx, viewer);
    return MixConnectionObject.from(ctx.services, await ctx.services.library.savedMixes(self.id, paging), self.id);
  }

  @Lookup()
  @FieldResolver(() => [SavedTrackObject], { description: 'Your saved catalogue tracks, most recently saved first.' })
  async savedTracks(@Root() viewer: ViewerObject, @Ctx() ctx: GraphQLContext): Promise<SavedTrackObject[]> {
    return (await ctx.services.library.savedTracks(requireSelf(ctx, viewer).id)).map(SavedTrackObject.from);
  }

  @Lookup()
  @FieldResolver(() => MixObject, { nullable: true, description: 'The mix you were playing, while it is still published.' })
  async currentMix(@Root() viewer: ViewerObject, @Ctx() ctx: GraphQLContext): Promise<MixObject | null> {
    const self = requireSelf(ctx, viewer);
    const mix = await ctx.services.library.currentMix(await ctx.services.users.get(self.id));
    return mix ? MixObject.from(ctx.services, mix, { distanceKm: null, viewerId: self.id }) : null;
  }

  @Mutation(() => MixObject, { description: 'Saves a published mix to your library (saving twice changes nothing).' })
  async saveMix(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<MixObject> {
    const viewerId = requireViewer(ctx.viewer).id;
    await ctx.services.library.saveMix(viewerId, mixId);
    const detail = await ctx.services.mixes.detail(mixId, viewerId);
    return MixObject.from(ctx.services, detail.mix, { distanceKm: detail.distanceKm, viewerId });
  }

  @Mutation(() => Boolean, { description: 'Removes a mix from your library.' })
  async removeSavedMix(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.library.removeSavedMix(requireViewer(ctx.viewer).id, mixId);
    return true;
  }

  @Mutation(() => [SavedTrackObject], { description: 'Saves a catalogue track; answers your saved tracks.' })
  async saveTrack(@Arg('trackId', () => ID) trackId: string, @Ctx() ctx: GraphQLContext): Promise<SavedTrackObject[]> {
    return (await ctx.services.library.saveTrack(requireViewer(ctx.viewer).id, trackId)).map(SavedTrackObject.from);
  }

  @Mutation(() => [SavedTrackObject], { description: 'Removes a saved track; answers your saved tracks.' })
  async removeSavedTrack(@Arg('trackId', () => ID) trackId: string, @Ctx() ctx: GraphQLContext): Promise<SavedTrackObject[]> {
    return (await ctx.services.library.removeSavedTrack(requireViewer(ctx.viewer).id, trackId)).map(SavedTrackObject.from);
  }

  @Mutation(() => ViewerObject, { description: 'Remembers the mix you are playing and the position in seconds; a null mix forgets it.' })
  async saveCurrentMix(
    @Arg('mixId', () => ID, { nullable: true }) mixId: string | null,
    @Arg('position', () => Float, { defaultValue: 0 }) position: number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ViewerObject> {
    return ViewerObject.fromUser(ctx.services, await ctx.services.library.saveCurrentMix(requireViewer(ctx.viewer).id, mixId, position));
  }
}
