import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfoObject, pageInfoOf } from '../../graphql/connection.js';
import { NodeInterface } from '../../graphql/node.js';
import type { Services } from '../../services.js';
import { GENRE_CODES, GENRES } from '../../shared/domain.js';
import { type MixTrackView } from '../tracks/index.js';
import { TrackObject } from '../tracks/track.types.js';
import { LocationObject, UserObject } from '../users/user.types.js';
import { mixPolicy } from './mix.policy.js';
import type { MixPage, MixView } from './mix.views.js';
import { expiringInDays, isExpired, isNewUpload } from './mix-lifecycle.js';
import type { TracklistVersionView } from './tracklist-versions.service.js';

/** Genres as a GraphQL enum: names upper-case, values the REST codes; ALL only filters (docs/rules.md#genres). */
export const GenreEnum: Record<string, string> = {
  ALL: 'all',
  ...Object.fromEntries(GENRE_CODES.map((code) => [code.toUpperCase(), code])),
};
registerEnumType(GenreEnum, {
  name: 'Genre',
  description: 'A mix genre (docs/rules.md#genres). ALL is a filter only, never the genre of a mix.',
  valuesConfig: {
    ALL: { description: 'All' },
    ...Object.fromEntries(GENRE_CODES.map((code) => [code.toUpperCase(), { description: GENRES[code] }])),
  },
});

export enum MixStatusEnum {
  DRAFT = 'draft',
  PUBLISHED = 'published',
}
registerEnumType(MixStatusEnum, { name: 'MixStatus' });

@ObjectType('MixTrack', { simpleResolvers: true, description: 'One entry of a mix’s tracklist.' })
export class MixTrackObject {
  @Field(() => Int, { description: 'From 1, in the order the uploader gave.' }) position!: number;
  @Field(() => Float, { nullable: true, description: 'Seconds into the mix.' }) startTime!: number | null;
  @Field(() => Float, { nullable: true }) endTime!: number | null;
  @Field(() => TrackObject) track!: TrackObject;

  static from(entry: MixTrackView): MixTrackObject {
    return Object.assign(new MixTrackObject(), { ...entry, track: TrackObject.from(entry.track) });
  }
}

@ObjectType('TracklistVersion', {
  simpleResolvers: true,
  description: 'One version of a published mix’s tracklist: the tracks listens were paid for while it was in force.',
})
export class TracklistVersionObject {
  @Field(() => ID) id!: string;
  @Field(() => Int, { description: 'From 1: the tracklist the mix was published with; each later edit adds the next.' }) number!: number;
  @Field(() => Date, { description: 'When this version came into force (it stayed in force until the next one).' }) createdAt!: Date;
  @Field(() => [MixTrackObject], { description: 'Its entries in order (5 to 30).' }) entries!: MixTrackObject[];

  static from(version: TracklistVersionView): TracklistVersionObject {
    return Object.assign(new TracklistVersionObject(), { ...version, entries: version.entries.map(MixTrackObject.from) });
  }
}

@ObjectType('Mix', { simpleResolvers: true, implements: NodeInterface })
export class MixObject {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => GenreEnum) genre!: string;
  @Field(() => String, { description: 'The 400x400 JPEG cover.' }) coverUrl!: string;
  @Field(() => String, { description: 'The MP3.' }) audioUrl!: string;
  @Field(() => UserObject) owner!: UserObject;
  @Field(() => MixStatusEnum, { description: 'Only the owner ever sees a draft.' }) status!: MixStatusEnum;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) publishedAt!: Date | null;
  @Field(() => Boolean, { description: 'Published in the last 7 days (the "New" badge).' }) isNewUpload!: boolean;
  @Field(() => Int, { nullable: true, description: 'Days of hosting left; null while a draft.' }) expiringIn!: number | null;
  @Field(() => Boolean, { description: 'Hosting has ended: the mix has left every list; only its owner still sees it.' })
  isExpired!: boolean;
  @Field(() => LocationObject, {
    nullable: true,
    description: 'Where the mix was made: the centre of the owner’s grid cell (about 2 km across) at the time.',
  })
  location!: LocationObject | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Whole kilometres from the feed’s point, or from the viewer’s cell; null when unknown, and for the viewer’s own mix.',
  })
  distanceKm!: number | null;
  @Field(() => Boolean, { description: 'Whether the signed-in viewer owns this mix.' }) isOwner!: boolean;
  @Field(() => Float, { nullable: true }) durationSeconds!: number | null;
  /** Whether the viewer saved the mix, when the page that listed it said (savedByMe then needs no query). */
  savedByViewer?: boolean;

  /** `distanceKm` as the service answered it (the service applies who may see a distance). */
  static from(
    services: Services,
    mix: MixView,
    view: { distanceKm: number | null; viewerId: string | null; savedByViewer?: boolean },
  ): MixObject {
    const now = new Date();
    return Object.assign(new MixObject(), {
      id: mix.id,
      title: mix.title,
      genre: mix.genre,
      coverUrl: services.mixes.coverUrl(mix),
      audioUrl: services.mixes.audioUrl(mix),
      owner: UserObject.from(services, mix.owner),
      status: mix.status as MixStatusEnum,
      createdAt: mix.createdAt,
      publishedAt: mix.publishedAt ?? null,
      isNewUpload: isNewUpload(mix, now),
      expiringIn: expiringInDays(mix, now),
      isExpired: isExpired(mix, now),
      location:
        typeof mix.latitude === 'number' && typeof mix.longitude === 'number' ? { latitude: mix.latitude, longitude: mix.longitude } : null,
      distanceKm: view.distanceKm,
      isOwner: mixPolicy.isOwner(view.viewerId, mix.owner.id),
      durationSeconds: mix.durationSeconds ?? null,
      ...(view.savedByViewer === undefined ? {} : { savedByViewer: view.savedByViewer }),
    });
  }
}

@ObjectType('MixEdge', { simpleResolvers: true })
export class MixEdgeObject {
  @Field(() => String) cursor!: string;
  @Field(() => MixObject) node!: MixObject;
}

@ObjectType('MixConnection', { simpleResolvers: true })
export class MixConnectionObject {
  @Field(() => [MixEdgeObject]) edges!: MixEdgeObject[];
  @Field(() => [MixObject]) nodes!: MixObject[];
  @Field(() => PageInfoObject) pageInfo!: PageInfoObject;
  /** The page's total, which may still be counting when the page is ready. */
  count!: Promise<number>;
  // A method, not a property: compiled execution reads a property without a resolver as a value, never as a promise.
  @Field(() => Int, { description: 'How many mixes match, across all pages (at least this many when totalCountIsLowerBound).' })
  totalCount(): Promise<number> {
    return this.count;
  }
  @Field(() => Boolean, {
    description: 'True when more mixes match than were counted (a wide feed circle): show totalCount as "10,000+".',
  })
  totalCountIsLowerBound!: boolean;

  static from(services: Services, page: MixPage, viewerId: string | null): MixConnectionObject {
    const edges = page.items.map((item) => ({
      cursor: item.cursor,
      node: MixObject.from(services, item.mix, { distanceKm: item.distanceKm, viewerId, savedByViewer: item.savedByViewer }),
    }));
    return Object.assign(new MixConnectionObject(), {
      edges,
      nodes: edges.map((edge) => edge.node),
      pageInfo: pageInfoOf(edges, page),
      count: page.totalCount,
      totalCountIsLowerBound: page.totalCountIsLowerBound,
    });
  }
}

@InputType('TracklistEntryInput', { description: 'One tracklist entry as the uploader confirmed it.' })
export class TracklistEntryInput {
  @Field(() => String) title!: string;
  @Field(() => [String], { description: 'Artist names; at least one.' }) creators!: string[];
  @Field(() => ID, { nullable: true, description: 'The catalogue track this entry is; without it the entry becomes a manual track.' })
  catalogueTrackId?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Typed by hand: always becomes a manual track.' }) isManual?: boolean | null;
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => String, { nullable: true, description: 'An http(s) URL of the release cover.' }) coverUrl?: string | null;
  @Field(() => Float, {
    nullable: true,
    description: 'Seconds into the mix where the track starts: inside the mix, and no earlier than the entry above.',
  })
  startTime?: number | null;
  @Field(() => Float, { nullable: true, description: 'Seconds into the mix where the track ends: after its start, inside the mix.' })
  endTime?: number | null;
}
