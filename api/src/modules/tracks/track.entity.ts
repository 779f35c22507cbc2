import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export interface Creator {
  id: string | null;
  name: string;
}
export interface TrackLabel {
  id: string | null;
  name: string;
}

/** A catalogue track: from the catalogue, or typed by hand when the uploader's entry matched nothing (isManual). */
export const Track = defineEntity({
  name: 'Track',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    title: p.string().length(300),
    creators: p.json<Creator[]>(),
    label: p.json<TrackLabel>().nullable(),
    cover: p.string().length(300).nullable(),
    isManual: p.boolean().default(false),
    buy: p.boolean().default(false),
    newRelease: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ITrack = InferEntity<typeof Track>;
