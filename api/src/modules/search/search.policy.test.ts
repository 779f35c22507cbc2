import { describe, expect, test } from 'vitest';
import { searchPolicy } from './search.policy.js';

describe('search policy', () => {
  test("distances are measured from the viewer's stored cell, and from nowhere without one", () => {
    expect(searchPolicy.distanceOrigin({ cellLatitude: 52.5, cellLongitude: 13.4 })).toEqual({ latitude: 52.5, longitude: 13.4 });
    expect(searchPolicy.distanceOrigin({ cellLatitude: 0, cellLongitude: 0 })).toEqual({ latitude: 0, longitude: 0 });
    expect(searchPolicy.distanceOrigin(null)).toBeNull();
    expect(searchPolicy.distanceOrigin({ cellLatitude: null, cellLongitude: 13.4 })).toBeNull();
    expect(searchPolicy.distanceOrigin({ cellLatitude: 52.5, cellLongitude: null })).toBeNull();
  });
});
