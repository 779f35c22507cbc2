import fc from 'fast-check';
import type { Method, Route } from './fuzz-app.js';
import { bodyOf, MALFORMED_BODIES, ODD_BODIES, PATH_VALUES, type Pass, QUERY_NAMES, QUERY_VALUES, type RawBody } from './fuzz-values.js';

export interface RestCase {
  /** Broken bodies (`raw`) stop at the body parsers, the same for everyone: they are sent once, signed in. */
  kind: 'path' | 'raw' | 'json';
  label: string;
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const HAS_BODY = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Headers some routes read themselves (tus, ranges, method overrides), with values no client should send. */
const HOSTILE_HEADERS: Record<Pass, Record<string, string>[]> = {
  unstorable: [
    { 'tus-resumable': '1.0.0', 'upload-length': '-1', 'upload-metadata': 'filename %%%,type' },
    { 'tus-resumable': '1.0.0', 'upload-offset': '1e308', 'content-type': 'application/offset+octet-stream' },
    { 'x-http-method-override': 'DELETE', range: 'bytes=-', 'if-none-match': '"\u00ff"' },
  ],
  odd: [
    { 'tus-resumable': '0.2.2', 'upload-length': '99999999999999999999', 'upload-defer-length': '1' },
    { 'tus-resumable': '1.0.0', 'upload-offset': '-1', 'upload-checksum': 'md5 AAAA' },
    { 'accept-encoding': 'br;q=NaN, *;q=2', accept: '*/*;q=-1' },
  ],
};

/** A stable number per text, so each route draws its own cases from the run's seed and adding a route moves no other. */
export const seedFor = (seed: number, text: string) => [...text].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, seed);

/** What goes into each path parameter (`:name`, or `*` for the catch-all), by the parameter's name. */
export type PathValues = (parameter: string) => string[];

function fillPath(url: string, valuesFor: PathValues, offset: number): string {
  let index = offset;
  return url.replace(/:[A-Za-z_]+|\*/g, (parameter) => {
    const values = valuesFor(parameter.replace(/^:/, ''));
    return values[index++ % values.length];
  });
}

function queryString(pass: Pass, index: number): string {
  const names = QUERY_NAMES.filter((_, position) => (position + index) % 3 === 0);
  // A repeated name arrives as a list, which a route reading one value must also survive.
  return names
    .map((name, position) => {
      const values = [...PATH_VALUES[pass], ...(pass === 'odd' ? (QUERY_VALUES[name] ?? []) : [])];
      return `${name}=${values[(index + position) % values.length]}&${name}=x`;
    })
    .join('&');
}

/** The route called with nothing but its path (each parameter unstorable): what it does when given no input at all. */
export function bareCase(route: Route): RestCase {
  return { kind: 'path', label: 'bare', method: route.method, url: fillPath(route.url, () => PATH_VALUES.unstorable, 0), headers: {} };
}

/**
 * The cases for one route in one pass: hostile path parameters, query strings and headers, and for methods with a body,
 * the fixed broken or odd bodies plus bodies drawn by fast-check.
 */
export function restCases(
  route: Route,
  pass: Pass,
  seed: number,
  generated: number,
  values: PathValues = () => PATH_VALUES[pass],
): RestCase[] {
  const cases: RestCase[] = [];
  const parameters = route.url.match(/:[A-Za-z_]+|\*/g) ?? [];
  const pathCount = Math.max(1, ...parameters.map((parameter) => values(parameter.replace(/^:/, '')).length));
  const headerSets = HOSTILE_HEADERS[pass];
  for (let index = 0; index < pathCount; index++) {
    const url = fillPath(route.url, values, index);
    cases.push({
      kind: 'path',
      label: `path ${url}`,
      method: route.method,
      url: `${url}?${queryString(pass, index)}`,
      headers: headerSets[index % headerSets.length],
    });
  }
  if (!HAS_BODY.has(route.method)) return cases;
  const raw: RawBody[] = pass === 'unstorable' ? MALFORMED_BODIES : ODD_BODIES;
  raw.forEach((body, index) => {
    cases.push({
      kind: 'raw',
      label: `body ${body.label}`,
      method: route.method,
      url: fillPath(route.url, values, index),
      headers: { 'content-type': body.contentType },
      payload: body.payload,
    });
  });
  const bodies = fc.sample(bodyOf(pass), { seed: seedFor(seed, `${route.method} ${route.url} ${pass}`), numRuns: generated });
  bodies.forEach((body, index) => {
    const payload = JSON.stringify(body);
    cases.push({
      kind: 'json',
      label: `json ${payload.length > 300 ? `${payload.slice(0, 300)}…` : payload}`,
      method: route.method,
      url: fillPath(route.url, values, index),
      headers: { 'content-type': 'application/json' },
      payload,
    });
  });
  return cases;
}
