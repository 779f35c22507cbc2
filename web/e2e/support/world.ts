import { randomBytes } from 'node:crypto';
import { sineMp3 } from '../../../api/test/support/audio';
import { solidImage } from '../../../api/test/support/images';

/** What journeys sign in with. */
export const PASSWORD = 'Mixcrate1!';

export interface Member {
  email: string;
  userName: string;
  token: string;
  id: string;
}

/**
 * A client address of its own per call (the journeys' API trusts X-Forwarded-For), so the per-address sign-up limit
 * never stops a suite that makes dozens of members from one machine.
 */
const clientAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

async function call<T>(baseUrl: string, path: string, init: { method?: string; token?: string; body?: unknown }): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': clientAddress(),
      ...(init.token ? { 'x-auth-token': init.token } : {}),
    },
    body: JSON.stringify(init.body ?? {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function graphql<T>(
  baseUrl: string,
  token: string | null,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((error) => error.message).join('; '));
  return body.data as T;
}

/** A member with a user name, a location and a user type, made over the REST calls (docs/public-api.md#rest-paths). */
export async function signUpMember(baseUrl: string, location = { latitude: 52.52, longitude: 13.405 }, prefix = 'dj'): Promise<Member> {
  const suffix = randomBytes(4).toString('hex');
  const email = `e2e_${suffix}@example.com`;
  const userName = `${prefix}_${suffix}`;
  const { token } = await call<{ token: string }>(baseUrl, '/api/user/create-user', {
    body: { email, password: PASSWORD, has_opted_in: false },
  });
  await call(baseUrl, '/api/user/add-username', { method: 'PATCH', token, body: { user_name: userName } });
  await call(baseUrl, '/api/user/update-location', { method: 'PATCH', token, body: { location } });
  const { setUserType } = await graphql<{ setUserType: { id: string } }>(baseUrl, token, 'mutation { setUserType(userType: DJ) { id } }');
  return { email, userName, token, id: setUserType.id };
}

export interface PublishedMix {
  id: string;
  title: string;
}

/** A published mix with a real MP3 (a tone), a cover and a five-track typed tracklist. */
export async function publishMix(baseUrl: string, owner: Member, title: string, genre: string, seconds = 40): Promise<PublishedMix> {
  const draft = await uploadDraft(baseUrl, owner, title, genre, seconds);
  await graphql(baseUrl, owner.token, 'mutation($mixId: ID!) { publishMix(mixId: $mixId, code: "free-mix") { id } }', {
    mixId: draft.id,
  });
  return draft;
}

/** A draft ready to pay for: a real MP3 (a tone), a cover and a five-track typed tracklist. */
export async function uploadDraft(baseUrl: string, owner: Member, title: string, genre: string, seconds = 40): Promise<PublishedMix> {
  const form = new FormData();
  form.append('cover', new Blob([new Uint8Array(await solidImage('png', 400, 400))], { type: 'image/png' }), 'cover.png');
  form.append('title', title);
  form.append(
    'mp3',
    new Blob([new Uint8Array(sineMp3({ seconds, kbps: 64, sampleRate: 22_050, channels: 1 }))], { type: 'audio/mpeg' }),
    'mix.mp3',
  );
  form.append('genre', genre);
  const response = await fetch(`${baseUrl}/api/mix/create-mix`, { method: 'POST', headers: { 'x-auth-token': owner.token }, body: form });
  const created = (await response.json()) as { _id?: string };
  if (!response.ok || !created._id) throw new Error(`create-mix answered ${response.status}: ${JSON.stringify(created)}`);
  const tracks = Array.from({ length: 5 }, (_, index) => ({
    title: `${title} track ${index + 1}`,
    creators: [`Artist ${index + 1}`],
    isManual: true,
  }));
  await graphql(
    baseUrl,
    owner.token,
    'mutation($mixId: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $mixId, tracks: $tracks) { position } }',
    {
      mixId: created._id,
      tracks,
    },
  );
  return { id: created._id, title };
}
