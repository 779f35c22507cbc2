import { describe, expect, it } from 'vitest';
import { MIX_COLUMNS, type MixRow, mixViewOfRow } from './mix.views.js';

const row: MixRow = {
  id: 'mix-1',
  owner_id: 'user-1',
  owner_user_name: 'ana',
  owner_display_name: 'Ana Kraus',
  owner_user_type: 'dj',
  owner_bio: 'Berlin',
  owner_user_image: 'ana.jpg',
  owner_created_at: '2026-01-02T03:04:05.000Z',
  owner_cell_latitude: 52.52,
  owner_cell_longitude: 13.4,
  title: 'Night Drive',
  genre: 'house',
  cover: 'c.jpg',
  mp3: 'a.mp3',
  duration_seconds: 3600,
  latitude: 52.5,
  longitude: 13.4,
  status: 'published',
  published_at: '2026-02-01T00:00:00.000Z',
  expires_at: null,
  created_at: '2026-01-31T00:00:00.000Z',
};

describe('mix views', () => {
  it("reads only what others may see of the mix's owner", () => {
    const ownerColumns = [...MIX_COLUMNS.matchAll(/\bu\.(\w+)/g)].map((match) => match[1]);
    expect(ownerColumns).toEqual([
      'id',
      'user_name',
      'display_name',
      'user_type',
      'bio',
      'user_image',
      'created_at',
      'cell_latitude',
      'cell_longitude',
    ]);
  });

  it('builds the owner as plain data from the same row', () => {
    const view = mixViewOfRow(row);
    expect(view.owner).toEqual({
      id: 'user-1',
      userName: 'ana',
      displayName: 'Ana Kraus',
      userType: 'dj',
      bio: 'Berlin',
      userImage: 'ana.jpg',
      createdAt: new Date('2026-01-02T03:04:05.000Z'),
      cellLatitude: 52.52,
      cellLongitude: 13.4,
    });
    expect(view.publishedAt).toEqual(new Date('2026-02-01T00:00:00.000Z'));
    expect(view.expiresAt).toBeNull();
  });
});
