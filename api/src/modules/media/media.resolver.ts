import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context.js';
import { MixObject } from '../mixes/mix.types.js';
import type { WaveformView } from './waveform.service.js';
import { WaveformObject } from './waveform.types.js';

const perRequest = new WeakMap<GraphQLContext, DataLoader<string, WaveformView | null>>();

/** One query for the waveforms of every mix in a response (a feed page of twenty asks once, not twenty times). */
function waveformLoader(ctx: GraphQLContext): DataLoader<string, WaveformView | null> {
  let loader = perRequest.get(ctx);
  if (!loader) {
    loader = new DataLoader((ids) => ctx.services.media.waveforms.forMixes(ids));
    perRequest.set(ctx, loader);
  }
  return loader;
}

/** The media module's fields on Mix: whoever may see the mix may see its waveform. */
@Resolver(() => MixObject)
export class MixMediaResolver {
  @FieldResolver(() => WaveformObject, { description: 'The seek-bar waveform and the state of the job that measures it.' })
  async waveform(@Root() mix: MixObject, @Ctx() ctx: GraphQLContext): Promise<WaveformObject> {
    const view = await waveformLoader(ctx).load(mix.id);
    return WaveformObject.from(view ?? { state: 'pending', peaks: null, durationSeconds: mix.durationSeconds });
  }
}
