import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CatalogueService } from '../../src/modules/tracks/catalogue/catalogue.service.js';
import { gql, type Member, type TestApp } from './app.js';

/** The shared parts of the trust tests (issue 29): a web root for share links, a catalogue track, a verified holder. */

/** A web build of one index.html, so client routes (share links) are served. */
export async function bareWebRoot(): Promise<string> {
  const root = join(await mkdtemp(join(tmpdir(), 'mixcrate-trust-')), 'dist');
  await mkdir(root);
  await writeFile(
    join(root, 'index.html'),
    '<!doctype html><html><head><title>mixcrate</title></head><body><div id="root"></div></body></html>',
  );
  return root;
}

/** A catalogue track by one creator; answers its id. */
export async function catalogueTrack(t: TestApp, source: string, creator: string, title: string): Promise<string> {
  await new CatalogueService(t.services.orm).write([
    {
      source,
      externalId: `${source}-1`,
      title,
      creators: [{ id: `cat-${source}`, name: creator }],
      label: null,
      cover: null,
      releaseDate: null,
      buy: true,
      newRelease: false,
    },
  ]);
  const [row] = await t.services.orm.em.fork().execute<{ id: string }[]>('select id from track where external_source = ?', [source]);
  return row.id;
}

/** The member claims the creator of the track and a moderator approves: they are its verified holder. */
export async function verifyHolder(t: TestApp, member: Member, moderator: Member, trackId: string, name: string): Promise<void> {
  const claimed = await gql<{ claimCreator: { id: string } }>(
    t.app,
    'mutation($input: ClaimCreatorInput!) { claimCreator(input: $input) { id } }',
    { input: { subject: 'CREATOR', name, trackId, evidence: ['https://example.com/me'], note: 'me' } },
    member.token,
  );
  expect(claimed.errors).toBeUndefined();
  const claimId = claimed.data?.claimCreator.id;
  const queue = await gql<{ moderationQueue: { items: { id: string; subjectId: string }[] } }>(
    t.app,
    '{ moderationQueue(first: 100) { items { id subjectId } } }',
    {},
    moderator.token,
  );
  const item = queue.data?.moderationQueue.items.find((entry) => entry.subjectId === claimId);
  const decided = await gql(
    t.app,
    'mutation($input: DecideModerationInput!) { decideModerationItem(input: $input) { id } }',
    { input: { itemId: item?.id, decision: 'APPROVE' } },
    moderator.token,
  );
  expect(decided.errors).toBeUndefined();
}

/** Puts a catalogue track into a published mix's tracklist (position past the typed ones). */
export async function addToTracklist(t: TestApp, mixId: string, trackId: string): Promise<void> {
  await t.services.orm.em
    .fork()
    .execute('insert into mix_track (id, mix_id, track_id, position) values (gen_random_uuid(), ?, ?, 99)', [mixId, trackId]);
}
