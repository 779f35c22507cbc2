import { describe, expect, test } from 'vitest';
import { VISIBLE_MIX_SQL } from '../mixes/index.js';
import { distanceWeight, FINISHED_LISTEN_SQL, REASON_KINDS, RECOMMENDABLE_SQL, reasonText } from './recommendation.policy.js';

const reason = (kind: (typeof REASON_KINDS)[number], relatedMixTitle: string | null = null, relatedMemberName: string | null = null) => ({
  kind,
  relatedMixTitle,
  relatedMemberName,
});

describe('recommendation policy', () => {
  test('the reasons, in the order the row is filled', () => {
    expect(REASON_KINDS).toEqual(['new_from_followed', 'saved', 'finished', 'popular_near_you', 'popular']);
  });

  test("each reason's words, with the names it carries or a stand-in", () => {
    expect(reasonText(reason('new_from_followed', null, 'Ana Kraus'))).toBe('New from Ana Kraus');
    expect(reasonText(reason('new_from_followed'))).toBe('New from a member you follow');
    expect(reasonText(reason('saved', 'Night Drive'))).toBe('Because you saved Night Drive');
    expect(reasonText(reason('saved'))).toBe('Because you saved a mix');
    expect(reasonText(reason('finished', 'Night Drive'))).toBe('Because you finished Night Drive');
    expect(reasonText(reason('finished'))).toBe('Because you finished a mix');
    expect(reasonText(reason('popular_near_you'))).toBe('Popular near you');
    expect(reasonText(reason('popular'))).toBe('Popular this week');
  });

  test('far listens weigh less: 1 next door, 1/1.5 at 50 km, 1/6 at 500 km, an unknown place as 20,000 km', () => {
    expect(distanceWeight(0)).toBe(1);
    expect(distanceWeight(50)).toBeCloseTo(1 / 1.5);
    expect(distanceWeight(500)).toBeCloseTo(1 / 6);
    expect(distanceWeight(null)).toBeCloseTo(1 / 201);
  });

  test('the SQL: a finished listen covers 90% of a mix with a length; a recommendable mix is visible and not yours', () => {
    expect(FINISHED_LISTEN_SQL('l', 'm').replace(/\s+/g, ' ')).toBe(
      'l.ended_at is not null and m.duration_seconds is not null and extract(epoch from l.ended_at - l.started_at) >= 0.9 * m.duration_seconds',
    );
    expect(RECOMMENDABLE_SQL).toBe(`${VISIBLE_MIX_SQL} and owner_id is distinct from :viewer::uuid`);
  });
});
