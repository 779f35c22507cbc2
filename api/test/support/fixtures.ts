/** Plain data the tests and benches share (no vitest here, so a bench can import it). */

export const CITIES = {
  berlin: { latitude: 52.52, longitude: 13.405 },
  london: { latitude: 51.5074, longitude: -0.1278 },
  paris: { latitude: 48.8566, longitude: 2.3522 },
  newYork: { latitude: 40.7128, longitude: -74.006 },
  sydney: { latitude: -33.8688, longitude: 151.2093 },
} as const;

/** Upload track entries as the upload wizard sends them: typed by hand (docs/public-api.md#wire-names). */
export const typedTracks = (count: number, prefix = 'Track') =>
  Array.from({ length: count }, (_, index) => ({
    name: `${prefix} ${index + 1}`,
    creators: `Artist ${index + 1}`,
    is_manual: true,
    sort: index,
    isSelected: true,
  }));
