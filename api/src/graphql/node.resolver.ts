import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { MixObject } from '../modules/mixes/mix.types.js';
import { TrackObject } from '../modules/tracks/track.types.js';
import { UserObject } from '../modules/users/user.types.js';
import { isUuid } from '../shared/cursor.js';
import { InvalidInputError, NotFoundError } from '../shared/errors.js';
import type { GraphQLContext } from './context.js';
import { NodeInterface } from './node.js';

/** The most ids one `nodes` call may ask for (each is up to three lookups). */
export const MAX_NODES = 50;

const orNull = <T>(lookup: Promise<T>): Promise<T | null> =>
  lookup.catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });

/** Relay's refetch: any mix, member or track by its id, as the viewer may see it (null when they may not, or none). */
async function nodeOf(ctx: GraphQLContext, id: string): Promise<NodeInterface | null> {
  if (!isUuid(id)) return null;
  const { services } = ctx;
  const viewerId = ctx.viewer?.id ?? null;
  const detail = await orNull(services.mixes.detail(id, viewerId));
  if (detail) return MixObject.from(services, detail.mix, { distanceKm: detail.distanceKm, viewerId });
  const user = await orNull(services.users.get(id));
  if (user?.userName) {
    const view = await orNull(services.users.profile(user.userName, viewerId));
    if (view) return UserObject.from(services, view.user, view);
  }
  const track = await orNull(services.tracks.byId(id));
  return track ? TrackObject.from(track) : null;
}

@Resolver()
export class NodeResolver {
  @Query(() => NodeInterface, { nullable: true, description: 'A mix, member or track by its id; null when there is none to see.' })
  node(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<NodeInterface | null> {
    return nodeOf(ctx, id);
  }

  @Query(() => [NodeInterface], { nullable: 'items', description: `Several nodes by id, in order (at most ${MAX_NODES}).` })
  async nodes(@Arg('ids', () => [ID]) ids: string[], @Ctx() ctx: GraphQLContext): Promise<(NodeInterface | null)[]> {
    if (ids.length > MAX_NODES) throw new InvalidInputError(`Ask for at most ${MAX_NODES} ids at once.`);
    return Promise.all(ids.map((id) => nodeOf(ctx, id)));
  }
}
