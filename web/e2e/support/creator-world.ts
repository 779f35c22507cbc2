import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_DIR } from './web-build';
import { graphql, type Member, type PublishedMix, uploadDraft } from './world';

const run = promisify(execFile);

/** `npm run admin -- …` against the journey's database (roles are granted from the command line, docs/moderation.md). */
export const admin = (databaseUrl: string | null, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    cwd: join(REPO_DIR, 'api'),
    env: { ...process.env, DATABASE_URL: databaseUrl ?? '' },
  });

/**
 * A published mix whose five tracklist entries are all one creator's (typed by hand, so each is a new catalogue
 * track credited to that name), and the id of its first track.
 */
export async function publishedMixOf(
  baseUrl: string,
  dj: Member,
  { title, creatorName, trackTitle }: { title: string; creatorName: string; trackTitle: string },
): Promise<{ mix: PublishedMix; firstTrackId: string }> {
  const draft = await uploadDraft(baseUrl, dj, title, 'house');
  await graphql(
    baseUrl,
    dj.token,
    'mutation($mixId: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $mixId, tracks: $tracks) { position } }',
    {
      mixId: draft.id,
      tracks: Array.from({ length: 5 }, (_, index) => ({ title: `${trackTitle} ${index + 1}`, creators: [creatorName], isManual: true })),
    },
  );
  await graphql(baseUrl, dj.token, 'mutation($mixId: ID!) { publishMix(mixId: $mixId, code: "free-mix") { id } }', { mixId: draft.id });
  const { mix } = await graphql<{ mix: { tracks: { track: { id: string } }[] } }>(
    baseUrl,
    dj.token,
    'query($id: ID!) { mix(id: $id) { tracks { track { id } } } }',
    { id: draft.id },
  );
  return { mix: draft, firstTrackId: mix.tracks[0]?.track.id ?? '' };
}
