import { filter, pipe } from '@graphql-yoga/subscription';
import { Arg, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { Topics } from '../../graphql/topics.js';
import { requireViewer } from '../../shared/viewer.js';
import { MixRecognitionObject, TrackReferenceObject } from './recognition.types.js';
import type { RecognitionView } from './recognition-jobs.js';

@Resolver()
export class RecognitionResolver {
  @Query(() => MixRecognitionObject, { description: 'The tracks recognised in a mix and the state of the job: for its owner only.' })
  async mixRecognition(@Arg('mixId', () => ID) mixId: string, @Ctx() ctx: GraphQLContext): Promise<MixRecognitionObject> {
    return MixRecognitionObject.from(await ctx.services.recognitionJobs.forOwner(requireViewer(ctx.viewer), mixId));
  }

  @Mutation(() => TrackReferenceObject, {
    description:
      "Makes a finished resumable upload (its id or URL from /api/uploads: an MP3 or WAV) the reference audio of a track you are a verified creator or label of (or any track, for moderators): fingerprinted for recognition. Audio matching another owner's indexed track waits in the moderation queue (queued: true). The upload is used up.",
  })
  async addTrackReference(
    @Arg('trackId', () => ID) trackId: string,
    @Arg('upload', () => String) upload: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TrackReferenceObject> {
    return TrackReferenceObject.from(await ctx.services.trackReferences.add(requireViewer(ctx.viewer), trackId, { uploadId: upload }));
  }

  @Mutation(() => Boolean, { description: 'Takes a track’s reference audio out of the index (the same people who may add it).' })
  removeTrackReference(@Arg('trackId', () => ID) trackId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.trackReferences.remove(requireViewer(ctx.viewer), trackId);
  }

  @Subscription(() => MixRecognitionObject, {
    description:
      "The recognition job of a mix as it goes (share scanned, tracks found so far with their times, then DONE or FAILED): for the mix's owner only.",
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      const mixId = await ctx.services.recognitionJobs.assertOwner(requireViewer(ctx.viewer), (args as { mixId: unknown }).mixId);
      if (!ctx.pubSub) throw new Error('No PubSub for subscriptions');
      // Events may cross the PubSub out of order (each is its own NOTIFY): a subscriber sees progress only grow, and
      // nothing after the end.
      let fraction = 0;
      let ended = false;
      return pipe(
        ctx.pubSub.subscribe(Topics.RecognitionProgress),
        filter((raw) => {
          const event = raw as RecognitionView;
          if (event.mixId !== mixId || ended) return false;
          if (event.state === 'running' && event.fraction < fraction) return false;
          fraction = event.fraction;
          ended = event.state === 'done' || event.state === 'failed';
          return true;
        }),
      );
    },
  })
  recognitionProgress(@Root() event: RecognitionView, @Arg('mixId', () => ID) _mixId: string): MixRecognitionObject {
    return MixRecognitionObject.from(event);
  }
}
