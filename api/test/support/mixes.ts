import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';
import type { Services } from '../../src/services.js';
import type { Member } from './app.js';
import { typedTracks } from './fixtures.js';

// The tests import the shared data with the rest of the mix helpers.
export { CITIES, typedTracks } from './fixtures.js';

const fileName = (extension: string) => `${randomBytes(12).toString('hex')}.${extension}`;

/** A draft as the upload step leaves it (media upload is another module; its files need not exist here). */
export async function draftMix(services: Services, owner: Member, options: { title?: string; genre?: string } = {}): Promise<string> {
  const mix = await services.mixes.createDraft({
    ownerId: owner.id,
    title: options.title ?? `Mix ${randomBytes(3).toString('hex')}`,
    genre: options.genre ?? 'house',
    cover: fileName('jpg'),
    mp3: fileName('mp3'),
  });
  return mix.id;
}

/** A mix through the whole lifecycle over REST: draft, tracklist, published with the beta code. */
export async function publishedMix(
  app: FastifyInstance,
  services: Services,
  owner: Member,
  options: { title?: string; genre?: string } = {},
): Promise<string> {
  const id = await draftMix(services, owner, options);
  const headers = { 'x-auth-token': owner.token };
  const tracks = await app.inject({ method: 'POST', url: '/api/mix/update-mix', headers, payload: { mix_id: id, tracks: typedTracks(5) } });
  expect(tracks.statusCode, tracks.body).toBe(200);
  const published = await app.inject({ method: 'POST', url: '/api/mix/publish-mix', headers, payload: { mix_id: id, code: 'free-mix' } });
  expect(published.statusCode, published.body).toBe(200);
  return id;
}

/** Moves a mix's publishing back in time (and its hosting with it), as if it had been published `days` ago. */
export async function publishedDaysAgo(services: Services, mixId: string, days: number): Promise<void> {
  await services.orm.em
    .fork()
    .execute(
      `update mix set published_at = published_at - make_interval(days => ?), expires_at = expires_at - make_interval(days => ?) where id = ?`,
      [days, days, mixId],
    );
}

const measured = new AsyncLocalStorage<true>();

/**
 * Every SQL statement `run` and what it starts send to PostgreSQL (its async context), with its parameters in place
 * (the ORM's entity queries and raw SQL alike go through its one connection object). Background work that runs
 * meanwhile (the search indexer draining its queue, sweepers) is not counted.
 */
export async function statementsDuring(services: Services, run: () => Promise<unknown>): Promise<string[]> {
  const connection = services.orm.em.getConnection();
  const platform = services.orm.em.getPlatform();
  const original = connection.execute.bind(connection);
  const statements: string[] = [];
  const spy = vi.spyOn(connection, 'execute').mockImplementation((...args: Parameters<typeof original>) => {
    if (measured.getStore()) statements.push(platform.formatQuery(String(args[0]), Array.isArray(args[1]) ? args[1] : []));
    return original(...args);
  });
  try {
    await measured.run(true, run);
  } finally {
    spy.mockRestore();
  }
  return statements;
}
