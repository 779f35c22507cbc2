import { randomBytes } from 'node:crypto';
import { CITIES, typedTracks } from '../../api/test/support/fixtures.js';
import { orderedMultipart } from '../../api/test/support/multipart.js';
import { timed } from './figures.js';
import { api, expectStatus, graphql, jsonOf, type Sender, send } from './http.js';
import { CREATORS, GENRES, MEMBERS, MEMBERS_PER_ADDRESS, MIXES_PER_CREATOR, PASSWORD, random, sleep } from './settings.js';

/** The world: members (some of them DJs with published mixes), and what the traffic changes as it goes. */

export interface Member extends Sender {
  index: number;
  id: string;
  userName: string;
  location: { latitude: number; longitude: number };
}
export interface Mix {
  id: string;
  mp3: string;
  cover: string;
  bytes: number;
}

export const members: Member[] = [];
export const mixes: Mix[] = [];
/** Where members live and feeds look from: the tests' cities. */
export const PLACES = Object.values(CITIES);

/** Uploads a mix over POST /api/mix/create-mix: cover, title, genre and the MP3 (a file, or a finished tus upload's id). */
export async function createMix(member: Member, cover: Buffer, title: string, genre: string, mp3: Buffer | string) {
  const form = orderedMultipart([
    { name: 'cover', fileName: 'cover.jpg', type: 'image/jpeg', data: cover },
    { name: 'title', value: title },
    { name: 'genre', value: genre },
    typeof mp3 === 'string' ? { name: 'mp3', value: mp3 } : { name: 'mp3', fileName: 'mix.mp3', type: 'audio/mpeg', data: mp3 },
  ]);
  const answer = expectStatus(
    await send('POST', '/api/mix/create-mix', { address: member.address, token: member.token, body: form.payload, headers: form.headers }),
    201,
  );
  return jsonOf<{ _id: string; mp3: string; cover: string }>(answer);
}

/** A tus upload of the whole file in one PATCH; answers the upload's id. */
export async function tusUpload(member: Member, mp3: Buffer): Promise<string> {
  const created = expectStatus(
    await send('POST', '/api/uploads', {
      address: member.address,
      token: member.token,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': mp3.length },
    }),
    201,
  );
  const location = new URL(String(created.headers.location), api.base).pathname;
  expectStatus(
    await send('PATCH', location, {
      address: member.address,
      token: member.token,
      body: mp3,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': 0, 'content-type': 'application/offset+octet-stream' },
    }),
    204,
  );
  return location.split('/').pop() ?? '';
}

/** A draft's tracklist, then publishing with the beta code; with `op`, each step is timed under the name it gives. */
export async function publish(member: Member, mixId: string, op?: (name: string) => string): Promise<void> {
  const step = async (name: string, run: () => Promise<unknown>) => (op ? timed(op(name), run) : run());
  const listed = await step('update-mix (tracklist)', async () =>
    expectStatus(
      await send('POST', '/api/mix/update-mix', {
        address: member.address,
        token: member.token,
        json: { mix_id: mixId, tracks: typedTracks(5, 'Soak track') },
      }),
      200,
    ),
  );
  if (!listed) return;
  await step('publish-mix', async () =>
    expectStatus(
      await send('POST', '/api/mix/publish-mix', {
        address: member.address,
        token: member.token,
        json: { mix_id: mixId, code: 'free-mix' },
      }),
      200,
    ),
  );
}

/** The stored MP3's length, from a one-byte range (what a player's first request learns). */
export async function storedBytes(mp3: string): Promise<number> {
  const answer = expectStatus(await send('GET', mp3, { headers: { range: 'bytes=0-0' } }), 206);
  return Number(/\/(\d+)$/.exec(String(answer.headers['content-range']))?.[1]);
}

/** Signs the members up (from several addresses), and has the first CREATORS publish their mixes. */
export async function seed(cover: Buffer, mixAudio: Buffer): Promise<void> {
  for (let index = 0; index < MEMBERS; index += 1) {
    const address = `127.0.0.${1 + Math.floor(index / MEMBERS_PER_ADDRESS)}`;
    const email = `soak-${index}-${randomBytes(3).toString('hex')}@example.com`;
    const signedUp = expectStatus(
      await send('POST', '/api/user/create-user', { address, json: { email, password: PASSWORD, has_opted_in: false } }),
      201,
    );
    const { token } = jsonOf<{ token: string }>(signedUp);
    const userName = `soak_${index}_${randomBytes(2).toString('hex')}`;
    const city = PLACES[index % PLACES.length] ?? CITIES.berlin;
    const location = { latitude: city.latitude + (random() - 0.5), longitude: city.longitude + (random() - 0.5) };
    expectStatus(await send('PATCH', '/api/user/add-username', { address, token, json: { user_name: userName } }), 200);
    expectStatus(await send('PATCH', '/api/user/update-location', { address, token, json: { location } }), 200);
    const me = jsonOf<{ _id: string }>(expectStatus(await send('GET', '/api/user/logged-in-user', { address, token }), 200));
    members.push({ index, id: me._id, token, userName, address, location });
  }
  for (const member of members.slice(0, CREATORS)) {
    for (let count = 0; count < MIXES_PER_CREATOR; count += 1) {
      const genre = GENRES[(member.index + count) % GENRES.length] ?? 'house';
      const draft = await createMix(member, cover, `Soak set ${member.index}.${count}`, genre, mixAudio);
      await publish(member, draft._id);
      mixes.push({ id: draft._id, mp3: draft.mp3, cover: draft.cover, bytes: await storedBytes(draft.mp3) });
    }
  }
  // The uploads queued waveform jobs (a decode of each MP3): let them finish before measuring.
  const waitUntil = Date.now() + 300_000;
  for (const mix of mixes) {
    for (;;) {
      const data = await graphql<{ mix: { waveform: { state: string } } | null }>(
        'query ($id: ID!) { mix(id: $id) { waveform { state } } }',
        { id: mix.id },
      );
      if (data.mix?.waveform.state !== 'PENDING' || Date.now() > waitUntil) break;
      await sleep(500);
    }
  }
}
