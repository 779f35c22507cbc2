import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm.js';
import { parseInput } from '../../../shared/inputs.js';
import { type ITrack, type MixTrackView, Track } from '../../tracks/index.js';
import { MixErrors } from '../mix.errors.js';
import { mixIdInput, tracklistInput } from '../mix.inputs.js';
import { MixTrack } from '../mix-track.entity.js';
import { lockOwnMix } from './own-mix.js';
import { addTracklistVersion, tracklistVersionInForce } from './tracklist-versions.js';

export interface SetTracklist {
  viewerId: string;
  mixId: unknown;
  entries: unknown;
}

/**
 * Replaces the tracklist of the caller's mix, keeping the order given. An entry names the catalogue track chosen for
 * it (an unknown one is a 400), or is manual (it names none, or says so): it becomes a manual catalogue track. Start
 * and end times are in order (see tracklistInput) and inside the mix when its duration is known. Choosing a track
 * raises its popularity (the database's trigger on mix_track counts each entry). Nothing changes unless every entry
 * is valid. A draft's tracklist is replaced in place (nobody has heard it, so no money follows it); a published mix's
 * new tracklist becomes its next version and the versions before it stay as they were (docs/payments.md#tracklist-versions).
 */
export async function setTracklist(orm: Orm, command: SetTracklist): Promise<MixTrackView[]> {
  const mixId = parseInput(mixIdInput, command.mixId);
  const entries = parseInput(tracklistInput, command.entries);
  return orm.em.fork().transactional(async (txEm) => {
    const em = txEm as EntityManager;
    const mix = await lockOwnMix(em, command.viewerId, mixId);
    const duration = mix.durationSeconds;
    if (duration != null) {
      entries.forEach((entry, index) => {
        if ((entry.startTime ?? 0) > duration || (entry.endTime ?? 0) > duration) throw MixErrors.pastTheEnd(index + 1, duration);
      });
    }
    const named = [...new Set(entries.flatMap((entry) => (entry.catalogueTrackId ? [entry.catalogueTrackId] : [])))];
    const catalogue = new Map(
      (named.length > 0 ? await em.find(Track, { id: { $in: named } }) : []).map((track) => [track.id, track] as const),
    );
    entries.forEach((entry, index) => {
      if (entry.catalogueTrackId && !catalogue.has(entry.catalogueTrackId)) throw MixErrors.unknownTrack(index + 1);
    });
    const published = mix.status === 'published';
    if (published) await tracklistVersionInForce(em, mix.id);
    await em.nativeDelete(MixTrack, { mix: mix.id });
    const tracklist = entries.map((entry, index): MixTrackView => {
      const track: ITrack =
        (entry.catalogueTrackId && catalogue.get(entry.catalogueTrackId)) ||
        em.create(Track, {
          title: entry.title,
          creators: entry.creators.map((name) => ({ id: null, name })),
          label: entry.label ? { id: null, name: entry.label } : null,
          cover: entry.cover ?? null,
          isManual: true,
        });
      const { startTime, endTime } = entry;
      em.create(MixTrack, { mix, track, position: index + 1, startTime, endTime });
      return { position: index + 1, startTime, endTime, track };
    });
    // A draft being worked on is not abandoned: its time to be removed starts again (see DRAFT_TTL_DAYS).
    mix.updatedAt = new Date();
    await em.flush();
    if (published) await addTracklistVersion(em, mix.id, mix.updatedAt);
    return tracklist;
  });
}
