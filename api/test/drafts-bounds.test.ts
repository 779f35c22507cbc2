import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FOLDERS, objectKey } from '../src/storage/storage.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix } from './support/mixes.js';

/** Issue 26: what one member may keep unpublished is bounded, and drafts nobody touches go away with their files. */

const MAX_DRAFTS = 3;
const TTL_DAYS = 14;
const DAY_MS = 86_400_000;

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ MAX_DRAFTS_PER_MEMBER: String(MAX_DRAFTS), DRAFT_TTL_DAYS: String(TTL_DAYS), MAX_OPEN_UPLOADS_GB: '0.000001' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => t.close());

const draftsOf = async (member: Member) =>
  Number(
    (
      await t.services.orm.em
        .fork()
        .execute<{ n: string }[]>(`select count(*) as n from mix where owner_id = ? and status = 'draft'`, [member.id])
    )[0].n,
  );

describe('drafts per member', () => {
  test('past the limit a draft is a 409 naming it, also before an upload sends its bytes', async () => {
    const member = await signUpMember(t.app);
    for (let index = 0; index < MAX_DRAFTS; index++) await draftMix(t.services, member);
    await expect(draftMix(t.services, member)).rejects.toMatchObject({
      status: 409,
      message: `You have ${MAX_DRAFTS} unpublished drafts, the most one member may keep: publish or delete one first`,
    });
    const boundary = 'mixcrate-drafts-bound';
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/mix/create-mix',
      headers: { 'x-auth-token': member.token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\ncontent-disposition: form-data; name="title"\r\n\r\nOne too many\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode, upload.body).toBe(409);
    expect(upload.json().message).toMatch(/^You have 3 unpublished drafts/);
    expect(await draftsOf(member)).toBe(MAX_DRAFTS);
  });

  test('eight drafts at once with room for one: one is made, seven are 409s', async () => {
    const member = await signUpMember(t.app);
    for (let index = 0; index < MAX_DRAFTS - 1; index++) await draftMix(t.services, member);
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => draftMix(t.services, member)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected' && (result.reason as { status?: number }).status === 409)).toHaveLength(
      7,
    );
    expect(await draftsOf(member)).toBe(MAX_DRAFTS);
  });
});

describe('drafts nobody touches', () => {
  test('are removed with their files after DRAFT_TTL_DAYS; fresh drafts and published mixes stay', async () => {
    const member = await signUpMember(t.app);
    const stale = await draftMix(t.services, member);
    const fresh = await draftMix(t.services, member);
    const em = t.services.orm.em.fork();
    const [row] = await em.execute<{ cover: string; mp3: string }[]>('select cover, mp3 from mix where id = ?', [stale]);
    const keys = [objectKey(FOLDERS.mixAudio, row.mp3), objectKey(FOLDERS.mixImages, row.cover)];
    for (const key of keys) await t.services.storage.put(key, Buffer.from('draft bytes'));
    await em.execute('update mix set updated_at = ? where id = ?', [new Date(Date.now() - (TTL_DAYS + 1) * DAY_MS), stale]);
    const published = await signUpMember(t.app);
    const kept = await draftMix(t.services, published);
    await em.execute(`update mix set status = 'published', published_at = now(), updated_at = ? where id = ?`, [
      new Date(Date.now() - 400 * DAY_MS),
      kept,
    ]);

    expect(await t.services.media.sweepStaleDrafts()).toBeGreaterThanOrEqual(1);
    const left = await em.execute<{ id: string }[]>('select id from mix where id in (?, ?, ?)', [stale, fresh, kept]);
    expect(left.map((mix) => mix.id).sort()).toEqual([fresh, kept].sort());
    for (const key of keys) expect(await t.services.storage.stat(key)).toBeNull();
  });

  test('the owner is told in the wizard when the draft goes; setting its tracklist starts the time again', async () => {
    const member = await signUpMember(t.app);
    const stranger = await signUpMember(t.app);
    const mixId = await draftMix(t.services, member);
    const tenDaysAgo = new Date(Date.now() - 10 * DAY_MS);
    await t.services.orm.em.fork().execute('update mix set updated_at = ? where id = ?', [tenDaysAgo, mixId]);
    const query = 'query($id: ID!) { mix(id: $id) { draftKeptUntil } }';
    const own = await gql<{ mix: { draftKeptUntil: string } }>(t.app, query, { id: mixId }, member.token);
    expect(new Date(own.data?.mix.draftKeptUntil ?? 0).getTime()).toBe(tenDaysAgo.getTime() + TTL_DAYS * DAY_MS);
    const rest = await t.app.inject({ method: 'GET', url: `/api/mix/upload/${mixId}`, headers: { 'x-auth-token': member.token } });
    expect(new Date(rest.json().current_mix.draft_kept_until).getTime()).toBe(tenDaysAgo.getTime() + TTL_DAYS * DAY_MS);
    const others = await gql<{ mix: { draftKeptUntil: string | null } | null }>(t.app, query, { id: mixId }, stranger.token);
    expect(others.data?.mix?.draftKeptUntil ?? null).toBeNull();

    await t.services.mixes.setTracklist(
      member.id,
      mixId,
      Array.from({ length: 5 }, (_, index) => ({ title: `Track ${index}`, creators: ['Artist'] })),
    );
    const later = await gql<{ mix: { draftKeptUntil: string } }>(t.app, query, { id: mixId }, member.token);
    expect(new Date(later.data?.mix.draftKeptUntil ?? 0).getTime()).toBeGreaterThan(Date.now() + (TTL_DAYS - 1) * DAY_MS);
  });
});

describe('open resumable uploads per member', () => {
  test('past MAX_OPEN_UPLOADS_GB a new upload is a 409 naming the limit; other members are not affected', async () => {
    const member = await signUpMember(t.app);
    const create = (size: number, token: string) =>
      fetch(`${base}/api/uploads`, {
        method: 'POST',
        headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'x-auth-token': token },
      });
    expect((await create(600, member.token)).status).toBe(201);
    const refused = await create(600, member.token);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toMatch(/^Your unfinished uploads would hold more than 0 GB/);
    const other = await signUpMember(t.app);
    expect((await create(600, other.token)).status).toBe(201);
  });
});
