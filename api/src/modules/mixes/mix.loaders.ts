import DataLoader from 'dataloader';
import type { GraphQLContext } from '../../graphql/context.js';
import type { MixTrackView } from '../tracks/index.js';
import type { TracklistVersionView } from './tracklist-versions.service.js';

export interface MixLoaders {
  /** Whole tracklists (`limit` null), or their first `limit` entries. */
  tracks(limit: number | null): DataLoader<string, MixTrackView[]>;
  /** The viewer's own mixes' newest `first` tracklist versions; null for anyone else's (keys: the mix and its owner). */
  versions(first: number): DataLoader<{ id: string; ownerId: string }, TracklistVersionView[] | null, string>;
  /** Null when nobody is signed in. */
  savedByViewer: DataLoader<string, boolean> | null;
}

const perRequest = new WeakMap<GraphQLContext, MixLoaders>();

/**
 * Batches the per-mix lookups of one GraphQL request: a page of twenty mixes asking for tracks and "saved by me" costs
 * one query each, not twenty.
 */
export function mixLoaders(ctx: GraphQLContext): MixLoaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    const { tracks, library, mixes } = ctx.services;
    const viewerId = ctx.viewer?.id;
    const tracksByLimit = new Map<number | null, DataLoader<string, MixTrackView[]>>();
    const versionsByFirst = new Map<number, DataLoader<{ id: string; ownerId: string }, TracklistVersionView[] | null, string>>();
    loaders = {
      tracks(limit) {
        let loader = tracksByLimit.get(limit);
        if (!loader) {
          loader = new DataLoader(async (ids) => {
            const byMix = await tracks.tracklistsOf(ids, limit);
            return ids.map((id) => byMix.get(id) ?? []);
          });
          tracksByLimit.set(limit, loader);
        }
        return loader;
      },
      versions(first) {
        let loader = versionsByFirst.get(first);
        if (!loader) {
          loader = new DataLoader(
            async (keys) => {
              const byMix = await mixes.versions.ofMixes(viewerId ?? null, keys, first);
              return keys.map((key) => byMix.get(key.id) ?? null);
            },
            { cacheKeyFn: (key) => key.id },
          );
          versionsByFirst.set(first, loader);
        }
        return loader;
      },
      savedByViewer: viewerId
        ? new DataLoader(async (ids) => {
            const saved = await library.savedAmong(viewerId, ids);
            return ids.map((id) => saved.has(id));
          })
        : null,
    };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}
