import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { GENRE_CODES, type GenreCode } from '../../shared/domain.js';
import { InvalidInputError, NotFoundError } from '../../shared/errors.js';
import { User } from '../users/user.entity.js';
import { type IMix, Mix } from './mix.entity.js';

/** Single-purchase hosting lasts this long from publishing. */
export const HOSTING_MONTHS = 12;

/** SQL for "anyone may see this mix": published, not deactivated, not expired. One definition for every list and page. */
export const VISIBLE_MIX_SQL = `status = 'published' and deactivated_at is null and (expires_at is null or expires_at > now())`;

export interface NewDraft {
  ownerId: string;
  title: string;
  genre: string;
  /** File names already stored under the SPEC paths (mix/mix-images, mix/mix-audio). */
  cover: string;
  mp3: string;
  audioBytes?: number;
  durationSeconds?: number | null;
  bitrate?: number | null;
}

export function parseGenre(value: unknown): GenreCode {
  if (typeof value !== 'string' || !(GENRE_CODES as string[]).includes(value)) {
    throw new InvalidInputError(`Unknown genre; use one of: ${GENRE_CODES.join(', ')}`);
  }
  return value as GenreCode;
}

/** Mixes: drafts, tracklists, publishing, deactivation, and the feed. */
export class MixesService {
  constructor(private readonly orm: Orm) {}

  protected em(): EntityManager {
    return this.orm.em.fork() as EntityManager;
  }

  /** Creates a draft owned by the uploader, recording where it was made (the uploader's location now). */
  async createDraft(input: NewDraft): Promise<IMix> {
    const title = input.title.trim();
    if (!title) throw new InvalidInputError('Title');
    const genre = parseGenre(input.genre);
    const em = this.em();
    const owner = await em.findOne(User, input.ownerId);
    if (!owner) throw new NotFoundError('User not found');
    const mix = em.create(Mix, {
      owner,
      title: title.slice(0, 200),
      genre,
      cover: input.cover,
      mp3: input.mp3,
      audioBytes: input.audioBytes ?? 0,
      durationSeconds: input.durationSeconds ?? null,
      bitrate: input.bitrate ?? null,
      latitude: owner.latitude ?? null,
      longitude: owner.longitude ?? null,
    } as never) as IMix;
    await em.flush();
    return mix;
  }

  /** A mix anyone may see; 404 when missing, deactivated, unpublished or expired. */
  async findVisible(id: string, em: EntityManager = this.em()): Promise<IMix> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError('Mix not found');
    const [row] = await em.getConnection().execute<{ id: string }[]>(`select id from mix where id = ? and ${VISIBLE_MIX_SQL}`, [id]);
    if (!row) throw new NotFoundError('Mix not found');
    return em.findOneOrFail(Mix, row.id, { populate: ['owner'] });
  }
}
