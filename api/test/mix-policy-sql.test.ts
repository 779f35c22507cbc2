import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { listedByOwnerSql, OPENABLE_BY_VIEWER_SQL, PUBLISHED_ACTIVE_MIX_SQL, VISIBLE_MIX_SQL } from '../src/modules/mixes/mix.policy.js';
import { named } from '../src/shared/sql.js';

/**
 * Who may see and open a mix is decided in SQL (mix.policy.ts), the rule's only form: every request filters rows with
 * these fragments. They are run here over a temporary `mix` table holding each case, on the test PostgreSQL.
 */
const owner = '00000000-0000-4000-8000-000000000001';
const other = '00000000-0000-4000-8000-000000000002';
const suspended = '00000000-0000-4000-8000-000000000003';

/**
 * status, deactivated_at, expires_at, moderation_state, owner_suspended_until (the owner's suspension as the triggers
 * copy it: null, its end, or 'infinity'), and the owner when not `owner`.
 */
const MIXES = {
  published: `'published', null, now() + interval '1 day', null, null`,
  publishedForever: `'published', null, null, null, null`,
  draft: `'draft', null, null, null, null`,
  expired: `'published', null, now() - interval '1 second', null, null`,
  deactivated: `'published', now(), now() + interval '1 day', null, null`,
  deactivatedDraft: `'draft', now(), null, null, null`,
  held: `'published', null, now() + interval '1 day', 'hidden', null`,
  ofSuspended: `'published', null, now() + interval '1 day', null, 'infinity'`,
  ofSuspendedForAWeek: `'published', null, now() + interval '1 day', null, now() + interval '7 days'`,
  ofSuspensionEnded: `'published', null, now() + interval '1 day', null, now() - interval '1 second'`,
} as const;
type Case = keyof typeof MIXES;

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  // A temporary table is found before any `mix` in public: the fragments read its columns unqualified.
  await client.query(
    'create temporary table mix (name text, status text, deactivated_at timestamptz, expires_at timestamptz, moderation_state text, owner_suspended_until timestamptz, owner_id uuid)',
  );
  for (const [name, values] of Object.entries(MIXES)) {
    await client.query(
      `insert into mix (name, status, deactivated_at, expires_at, moderation_state, owner_suspended_until, owner_id) values ($1, ${values}, $2)`,
      [name, name.startsWith('ofSuspen') ? suspended : owner],
    );
  }
});
afterAll(() => client.end());

/** The cases a fragment lets through, with `:viewer` bound. */
async function passing(where: string, viewer: string | null = null): Promise<Case[]> {
  const [sql, values] = named(`select name from mix where ${where} order by name`, where.includes(':viewer') ? { viewer } : {});
  let index = 0;
  const numbered = sql.replace(/\?/g, () => `$${++index}::uuid`);
  const { rows } = await client.query<{ name: Case }>(numbered, values);
  return rows.map((row) => row.name);
}

describe('the SQL that decides who sees and opens a mix (docs/permissions.md#owners)', () => {
  test('anyone sees a published, active mix whose hosting runs: not a draft, a deactivated, an expired or a held one, nor a suspended member’s', async () => {
    expect(await passing(VISIBLE_MIX_SQL)).toEqual(['ofSuspensionEnded', 'published', 'publishedForever']);
  });

  test('the feed indexes hold published, active mixes, expired ones included (their predicate cannot use now())', async () => {
    expect(await passing(PUBLISHED_ACTIVE_MIX_SQL)).toEqual([
      'expired',
      'held',
      'ofSuspended',
      'ofSuspendedForAWeek',
      'ofSuspensionEnded',
      'published',
      'publishedForever',
    ]);
  });

  test('the owner opens their draft, their expired and their held mix, never a deactivated one; others and nobody only visible ones', async () => {
    expect(await passing(OPENABLE_BY_VIEWER_SQL, owner)).toEqual([
      'draft',
      'expired',
      'held',
      'ofSuspensionEnded',
      'published',
      'publishedForever',
    ]);
    expect(await passing(OPENABLE_BY_VIEWER_SQL, other)).toEqual(['ofSuspensionEnded', 'published', 'publishedForever']);
    expect(await passing(OPENABLE_BY_VIEWER_SQL, null)).toEqual(['ofSuspensionEnded', 'published', 'publishedForever']);
  });

  test("a member's list: the owner also sees their expired mixes, others only the visible ones", async () => {
    expect(await passing(listedByOwnerSql(true))).toEqual([
      'expired',
      'held',
      'ofSuspended',
      'ofSuspendedForAWeek',
      'ofSuspensionEnded',
      'published',
      'publishedForever',
    ]);
    expect(await passing(listedByOwnerSql(false))).toEqual(['ofSuspensionEnded', 'published', 'publishedForever']);
  });
});
