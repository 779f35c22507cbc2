import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settleRewards } from '../src/modules/payments/commands/settle-rewards.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix } from './support/mixes.js';

/**
 * Issue 28, a verified creator's earnings per track (docs/payments.md#per-track-lines, docs/creators.md#earnings): the
 * settlement writes each ledger line's tracks in its transaction, they add up to the line to the cent, the creator
 * reads them by GraphQL, REST and CSV, and settled track lines never change.
 */

let t: TestApp;
let creator: Member;
let stranger: Member;
let period: string;

const rest = (method: 'GET' | 'POST', url: string, member?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, payload, headers: member ? { 'x-auth-token': member.token } : {} });
const sql = <T>(query: string, params: unknown[] = []) => t.services.orm.em.fork().execute<T[]>(query, params);

/** Five timed tracks of 60 s; Tomi Sato made two of them. */
const ARTISTS = ['Tomi Sato', 'Bo', 'Tomi Sato', 'Dee', 'Eve'];

interface TrackLine {
  trackId: string | null;
  title: string | null;
  amountCents: number;
  listenedSeconds: number;
  subscribers: number;
  paidCents: number;
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://mixcrate.test' });
  const [dj, subscriber] = [await signUpMember(t.app), await signUpMember(t.app)];
  [creator, stranger] = [await signUpMember(t.app), await signUpMember(t.app)];
  const mixId = await draftMix(t.services, dj);
  const tracks = ARTISTS.map((artist, index) => ({
    name: `${artist} song ${index + 1}`,
    creators: artist,
    is_manual: true,
    start_time: index * 60,
    end_time: index * 60 + 60,
  }));
  expect((await rest('POST', '/api/mix/update-mix', dj, { mix_id: mixId, tracks })).statusCode).toBe(200);
  expect((await rest('POST', '/api/mix/publish-mix', dj, { mix_id: mixId, code: 'free-mix' })).statusCode).toBe(200);
  await sql(`update mix set published_at = published_at - interval '1 day' where id = ?`, [mixId]);

  const session = await rest('POST', '/api/payment/create-subscription-session', subscriber, {});
  expect((await rest('POST', `${new URL(session.json().redirect).pathname}/pay`)).statusCode).toBe(303);
  const [subscription] = await sql<{ id: string }>('select id from subscription where user_id = ?', [subscriber.id]);
  const periodEnd = new Date(Date.now() + 60 * 60 * 1000);
  await sql(
    `insert into subscription_payment (id, subscription_id, provider_ref, amount_cents, currency, period_start, period_end, paid_at)
     values (gen_random_uuid(), ?, ?, 999, 'usd', now() - interval '1 day', ?, now())`,
    [subscription.id, `tracks_${subscriber.id}`, periodEnd],
  );
  const start = Date.now() - 400 * 1000;
  await rest('POST', `/api/mix/add-new-listen/${mixId}`, subscriber, { start: new Date(start).toISOString() });
  await rest('POST', `/api/mix/pause/${mixId}`, subscriber, { end: new Date(start + 300 * 1000).toISOString() });
  // Other test files' payments may settle here too; only this subscriber's lines are read below.
  await settleRewards(t.services.orm, new Date(periodEnd.getTime() + 1000), true);

  const [line] = await sql<{ creator_key: string; period: string }>(
    `select a.creator_key, a.period from reward_allocation a join subscription_payment p on p.id = a.subscription_payment_id
      where p.subscription_id = ? and a.creator_name = 'Tomi Sato'`,
    [subscription.id],
  );
  period = line.period;
  await sql(
    `insert into creator_claim (id, user_id, subject, subject_key, subject_name, evidence, note, status, created_at)
     values (gen_random_uuid(), ?, 'creator', ?, 'Tomi Sato', '[]', '', 'approved', now())`,
    [creator.id, line.creator_key],
  );
});
afterAll(() => t.close());

describe('earnings per track', () => {
  test('settlement splits every line over its tracks, to the cent (largest remainder)', async () => {
    const rows = await sql<{ amount_cents: number; track_cents: string; listened_seconds: number; track_seconds: number }>(
      `select a.amount_cents, sum(rt.amount_cents) as track_cents, a.listened_seconds, sum(rt.listened_seconds) as track_seconds
         from reward_allocation a join reward_allocation_track rt on rt.allocation_id = a.id
        where a.creator_key is not null group by a.id`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(Number(row.track_cents)).toBe(row.amount_cents);
      expect(row.track_seconds).toBeCloseTo(row.listened_seconds, 6);
    }
  });

  test('the creator reads their month per track in GraphQL: 699 × 70% gives Tomi Sato 279, split 140 + 139', async () => {
    const answer = await gql<{ creatorEarnings: { months: { period: string; amountCents: number; tracks: TrackLine[] }[] } }>(
      t.app,
      '{ creatorEarnings { months { period amountCents tracks { trackId title amountCents listenedSeconds subscribers paidCents } } } }',
      {},
      creator.token,
    );
    expect(answer.errors).toBeUndefined();
    const [month] = answer.data?.creatorEarnings.months ?? [];
    expect(month?.amountCents).toBe(279);
    expect(month?.tracks.map((track) => [track.title, track.listenedSeconds, track.subscribers])).toEqual(
      expect.arrayContaining([
        ['Tomi Sato song 1', 60, 1],
        ['Tomi Sato song 3', 60, 1],
      ]),
    );
    expect(month?.tracks.map((track) => track.amountCents)).toEqual([140, 139]);
  });

  test('REST: the per-track lines of one month, or of all; a bad month is a 400; strangers get 403', async () => {
    const one = await rest('GET', `/api/creator/earnings/tracks?period=${period}`, creator);
    expect(one.statusCode, one.body).toBe(200);
    const lines = one.json().lines as { period: string; creator_name: string; track_title: string; amount_cents: number }[];
    expect(lines.map((line) => line.amount_cents)).toEqual([140, 139]);
    expect(lines.every((line) => line.period === period && line.creator_name === 'Tomi Sato')).toBe(true);
    expect((await rest('GET', '/api/creator/earnings/tracks', creator)).json().lines).toEqual(lines);
    expect((await rest('GET', '/api/creator/earnings/tracks?period=2020-01', creator)).json()).toEqual({ lines: [] });
    const bad = await rest('GET', '/api/creator/earnings/tracks?period=2026-13', creator);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/YYYY-MM/);
    expect((await rest('GET', `/api/creator/earnings/tracks?period=${period}`, stranger)).statusCode).toBe(403);
    expect((await rest('GET', '/api/creator/earnings/tracks')).statusCode).toBe(401);
    const months = (await rest('GET', '/api/creator/earnings', creator)).json().months;
    expect(months[0].tracks.map((track: { amount_cents: number }) => track.amount_cents)).toEqual([140, 139]);
  });

  test('the CSV has one line per month, name and track', async () => {
    const csv = (await rest('GET', '/api/creator/earnings.csv', creator)).body.split('\r\n');
    expect(csv[0]).toBe('period,creator_key,creator_name,track_id,track_title,amount_cents,listened_seconds,subscribers,paid_cents');
    expect(csv.filter((line) => line.includes('Tomi Sato song')).map((line) => line.split(',').slice(4, 9))).toEqual(
      expect.arrayContaining([expect.arrayContaining(['140', '60', '1', '0']), expect.arrayContaining(['139', '60', '1', '0'])]),
    );
    expect(csv.join('\n')).not.toContain('Bo song');
  });

  test('settled track lines do not change', async () => {
    await expect(
      sql("update reward_allocation_track set amount_cents = amount_cents + 1 where track_title like 'Tomi Sato%'"),
    ).rejects.toThrow(/a settled ledger line does not change/);
  });
});
