import { describe, expect, test } from 'vitest';
import {
  draftKeptUntil,
  listedByOwnerSql,
  type MixAccessFacts,
  mixPolicy,
  OPENABLE_BY_VIEWER_SQL,
  PUBLISHED_ACTIVE_MIX_SQL,
  UNHELD_MIX_SQL,
  VISIBLE_MIX_SQL,
} from './mix.policy.js';

const now = new Date('2026-06-01T12:00:00Z');
const owner = '00000000-0000-4000-8000-000000000001';
const other = '00000000-0000-4000-8000-000000000002';
const mix = (facts: Partial<MixAccessFacts> = {}): MixAccessFacts => ({
  status: 'published',
  deactivated: false,
  expiresAt: new Date('2027-01-01T00:00:00Z'),
  ownerId: owner,
  held: false,
  ownerSuspended: false,
  ...facts,
});
const expired = { expiresAt: new Date('2026-06-01T11:59:59Z') };

describe('visibility', () => {
  test('anyone sees a published, active mix whose hosting runs; nobody else sees drafts, deactivated or expired ones', () => {
    expect(mixPolicy.isVisible(mix(), now)).toBe(true);
    expect(mixPolicy.isVisible(mix({ expiresAt: null }), now)).toBe(true);
    expect(mixPolicy.isVisible(mix({ status: 'draft' }), now)).toBe(false);
    expect(mixPolicy.isVisible(mix({ deactivated: true }), now)).toBe(false);
    expect(mixPolicy.isVisible(mix(expired), now)).toBe(false);
  });

  test('a held mix and a suspended member’s mix are hidden; only a held one is refused for legal reasons', () => {
    expect(mixPolicy.isVisible(mix({ held: true }), now)).toBe(false);
    expect(mixPolicy.isVisible(mix({ ownerSuspended: true }), now)).toBe(false);
    expect(mixPolicy.refusedForLegalReasons(mix({ held: true }))).toBe(true);
    expect(mixPolicy.refusedForLegalReasons(mix({ held: true, ownerSuspended: true }))).toBe(false);
    expect(mixPolicy.refusedForLegalReasons(mix())).toBe(false);
  });
});

describe('changes', () => {
  test('only the owner changes a mix; a missing or deactivated mix is not found', () => {
    expect(() => mixPolicy.assertCanChange(mix(), owner)).not.toThrow();
    expect(() => mixPolicy.assertCanChange(mix(), other)).toThrow('Only the owner');
    expect(() => mixPolicy.assertCanChange(mix({ deactivated: true }), owner)).toThrow('Mix not found');
    expect(() => mixPolicy.assertCanChange(null, owner)).toThrow('Mix not found');
  });
});

describe('files', () => {
  const viewer = (id: string | null) => async () => id;

  test('a visible mix’s files are public; a draft’s private to whoever holds the link; an expired one’s to its owner only', async () => {
    expect(await mixPolicy.fileAccess(mix(), viewer(null), now)).toBe('public');
    expect(await mixPolicy.fileAccess(mix({ status: 'draft' }), viewer(null), now)).toBe('private');
    expect(await mixPolicy.fileAccess(mix(expired), viewer(owner), now)).toBe('private');
    expect(await mixPolicy.fileAccess(mix(expired), viewer(other), now)).toBeNull();
    expect(await mixPolicy.fileAccess(mix({ deactivated: true }), viewer(owner), now)).toBeNull();
    expect(await mixPolicy.fileAccess(null, viewer(owner), now)).toBeNull();
  });

  test('a held mix’s files are its owner’s alone; a suspended member’s are nobody’s', async () => {
    expect(await mixPolicy.fileAccess(mix({ held: true }), viewer(owner), now)).toBe('private');
    expect(await mixPolicy.fileAccess(mix({ held: true }), viewer(other), now)).toBeNull();
    expect(await mixPolicy.fileAccess(mix({ held: true }), viewer(null), now)).toBeNull();
    expect(await mixPolicy.fileAccess(mix({ ownerSuspended: true }), viewer(owner), now)).toBeNull();
  });

  test('the viewer is not asked when the mix alone decides', async () => {
    const asked = async () => {
      throw new Error('asked');
    };
    await expect(mixPolicy.fileAccess(mix(), asked, now)).resolves.toBe('public');
  });
});

test('a mix is the viewer’s own only when the viewer is its owner; nobody owns it for an anonymous viewer', () => {
  expect(mixPolicy.isOwner(owner, owner)).toBe(true);
  expect(mixPolicy.isOwner(other, owner)).toBe(false);
  expect(mixPolicy.isOwner(null, owner)).toBe(false);
});

test('the owner’s own mix shows no distance; anyone else’s shows it', () => {
  expect(mixPolicy.distanceShown(owner, owner, 12)).toBeNull();
  expect(mixPolicy.distanceShown(other, owner, 12)).toBe(12);
  expect(mixPolicy.distanceShown(null, owner, 12)).toBe(12);
});

test('who listened to a mix and who saved it are for its owner only', () => {
  expect(mixPolicy.seesAudience(owner, owner)).toBe(true);
  expect(mixPolicy.seesAudience(other, owner)).toBe(false);
  expect(mixPolicy.seesAudience(null, owner)).toBe(false);
});

describe('the SQL twins', () => {
  // Which rows each fragment lets through is tested on PostgreSQL (test/mix-policy-sql.test.ts); the text is pinned here
  // so that the unit run, and the mutation run on it, notice any change to a rule that lives only in SQL.
  test('published and active; visible adds the hosting; openable adds the owner; a list picks by who asks', () => {
    expect(PUBLISHED_ACTIVE_MIX_SQL).toBe(`status = 'published' and deactivated_at is null`);
    expect(UNHELD_MIX_SQL).toBe('moderation_state is null and not (owner_suspended_until is not null and owner_suspended_until > now())');
    expect(VISIBLE_MIX_SQL).toBe(
      `status = 'published' and deactivated_at is null and (expires_at is null or expires_at > now()) and ${UNHELD_MIX_SQL}`,
    );
    expect(OPENABLE_BY_VIEWER_SQL).toBe(`deactivated_at is null and ((${VISIBLE_MIX_SQL}) or owner_id = :viewer)`);
    expect(listedByOwnerSql(true)).toBe(PUBLISHED_ACTIVE_MIX_SQL);
    expect(listedByOwnerSql(false)).toBe(VISIBLE_MIX_SQL);
  });
});

test('an untouched draft is kept ttlDays whole days from its last change', () => {
  expect(draftKeptUntil(new Date('2026-06-01T12:00:00Z'), 7)).toEqual(new Date('2026-06-08T12:00:00Z'));
  expect(draftKeptUntil(new Date('2026-06-01T12:00:00Z'), 0.5)).toEqual(new Date('2026-06-02T00:00:00Z'));
});

test('owner-only parts: a missing or deactivated mix is not found for anyone, another member gets the given error', () => {
  const notYours = () => new Error('not yours');
  expect(() => mixPolicy.assertIsOwner(mix(), owner, notYours)).not.toThrow();
  expect(() => mixPolicy.assertIsOwner(mix(), other, notYours)).toThrow('not yours');
  expect(() => mixPolicy.assertIsOwner(mix({ deactivated: true }), owner, notYours)).toThrow('Mix not found');
  expect(() => mixPolicy.assertIsOwner(null, owner, notYours)).toThrow('Mix not found');
});

test('without a viewer: a deactivated or missing mix is nobody’s, a visible one public, a draft private, an expired one undecided', () => {
  expect(mixPolicy.fileAccessWithoutViewer(null, now)).toBeNull();
  expect(mixPolicy.fileAccessWithoutViewer(mix({ deactivated: true }), now)).toBeNull();
  expect(mixPolicy.fileAccessWithoutViewer(mix(), now)).toBe('public');
  expect(mixPolicy.fileAccessWithoutViewer(mix({ status: 'draft' }), now)).toBe('private');
  expect(mixPolicy.fileAccessWithoutViewer(mix(expired), now)).toBeUndefined();
});
