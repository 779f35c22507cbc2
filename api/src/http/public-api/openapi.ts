import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { LOCATION_CELL_KM, LOCATION_CHANGES_PER_HOUR } from '../../shared/rules.js';

interface Operation {
  summary: string;
  /** The JSON (or multipart) fields the REST calls name, documented as strings unless said otherwise. */
  body?: Record<string, 'string' | 'number' | 'boolean' | 'object' | 'array'>;
  query?: string[];
  /** Needs a member's token (x-auth-token or Authorization: Bearer). */
  member?: boolean;
  multipart?: boolean;
}

/**
 * What each REST operation does, in the wire names (docs/public-api.md#wire-names). The paths, methods and path parameters come from the
 * routes as registered (a test fails when a route has no entry here, or an entry no route).
 */
export const OPERATIONS: Record<string, Operation> = {
  'POST /api/user/create-user': {
    summary: 'Sign up; answers a token',
    body: { email: 'string', password: 'string', has_opted_in: 'boolean' },
  },
  'POST /api/auth': { summary: 'Sign in; answers a token', body: { email: 'string', password: 'string' } },
  'POST /api/auth/update-password': {
    summary: 'Set a new password with a reset code',
    body: { email: 'string', newPassword: 'string', code: 'string' },
  },
  'POST /api/user/reset-password': { summary: 'Mail a password reset link', body: { email: 'string' } },
  'POST /api/user/check-password': { summary: 'Check the current password', body: { password: 'string' }, member: true },
  'PUT /api/user/update-password': {
    summary: 'Change the password (after check-password); ends the member’s other sessions',
    body: { newPassword: 'string' },
    member: true,
  },
  'POST /api/auth/logout': { summary: 'Sign out: end the session the token belongs to', member: true },
  'POST /api/auth/logout-everywhere': { summary: 'End every session of the member, this one included', member: true },
  'PATCH /api/user/opt-in': { summary: 'Set the mailing opt-in', body: { userId: 'string', has_opted_in: 'boolean' }, member: true },
  'PATCH /api/user/add-username': {
    summary: 'Choose a user name (sign-up step)',
    body: { user_name: 'string', user_token: 'string' },
    member: true,
  },
  'PATCH /api/user/update-location': {
    summary: `Set the member location (sign-up step); others see only its ~${LOCATION_CELL_KM} km cell; 429 past ${LOCATION_CHANGES_PER_HOUR} changes an hour`,
    body: { token: 'string', location: 'object' },
    member: true,
  },
  'PATCH /api/user/add-user-type': {
    summary: 'Set the member type (sign-up step)',
    body: { token: 'string', user_type: 'string' },
    member: true,
  },
  'POST /api/user/add-random-mix': { summary: 'Put a random mix in the player', body: { token: 'string' }, member: true },
  'PATCH /api/user/set-user-conduct': {
    summary: 'Agree to the code of conduct',
    body: { token: 'string', is_agreed_to_conduct: 'boolean' },
    member: true,
  },
  'PATCH /api/user/update-user': {
    summary: 'Edit the profile',
    body: { display_name: 'string', user_type: 'string', bio: 'string', profile_image: 'string' },
    member: true,
    multipart: true,
  },
  'GET /api/user/logged-in-user': { summary: 'The signed-in member', member: true },
  'GET /api/user/by-user-name/{name}': { summary: 'A public profile' },
  'POST /api/user/search': { summary: 'Search members by name', body: { searchString: 'string' } },
  'GET /api/user/get-following/{user_name}/{page}': { summary: 'Members a member follows (20 a page, from 1)', member: true },
  'GET /api/user/get-followers/{user_name}/{page}': { summary: 'Followers of a member (20 a page, from 1)', member: true },
  'GET /api/user/follow/{id}': { summary: 'Toggle following a member (the documented form; prefer POST)', member: true },
  'POST /api/user/follow/{id}': { summary: 'Toggle following a member; code FOLLOWED or UNFOLLOWED', member: true },
  'GET /api/user/saved-mixes-by-me': { summary: 'The member saved mixes', query: ['page'], member: true },
  'POST /api/user/save-mix/{id}': { summary: 'Save a mix', member: true },
  'POST /api/user/remove-saved-mix/{id}': { summary: 'Remove a saved mix', member: true },
  'POST /api/user/get-tracks-by-id': { summary: 'The member saved tracks', body: { trackId: 'string' }, member: true },
  'POST /api/user/save-track': { summary: 'Save a track', body: { trackId: 'string' }, member: true },
  'POST /api/user/remove-track': { summary: 'Remove a saved track', body: { trackId: 'string' }, member: true },
  'PATCH /api/user/deactivate-mix/{id}': { summary: 'Take down one of the member mixes', member: true },
  'POST /api/user/save-current-mix': {
    summary: 'Remember the mix in the player and its position',
    body: { mix_id: 'string', position: 'number' },
    member: true,
  },
  'POST /api/mix/create-mix': {
    summary: 'Upload a mix (cover, title, mp3 or a tus upload id, genre); answers the draft',
    body: { cover: 'string', title: 'string', mp3: 'string', genre: 'string', upload_id: 'string' },
    member: true,
    multipart: true,
  },
  'POST /api/track/acquire-track-information': { summary: 'Look tracks up for a tracklist', body: { tracks_array: 'array' }, member: true },
  'POST /api/track/{id}/reference': {
    summary:
      'Add reference audio (MP3 or WAV, or a finished /api/uploads id) to a track you are a verified creator or label of (or as a moderator); 202 when it waits for a moderator',
    body: { audio: 'string' },
    member: true,
    multipart: true,
  },
  'DELETE /api/track/{id}/reference': {
    summary: 'Remove a track’s reference audio (verified creators and labels of the track, moderators)',
    member: true,
  },
  'GET /api/track/{id}': { summary: 'A catalogue track' },
  'GET /api/track/{id}/mixes/{page}': { summary: 'Public mixes that play a track' },
  'POST /api/mix/update-mix': { summary: 'Set a draft tracklist', body: { mix_id: 'string', tracks: 'array' }, member: true },
  'GET /api/mix/upload/{id}': { summary: 'A draft of the member (before publishing)', member: true },
  'POST /api/mix/publish-mix': {
    summary: 'Publish a draft on evidence: a BETA code, a paid checkout session for it, or an active subscription (402 otherwise)',
    body: { mix_id: 'string', code: 'string', session_id: 'string' },
    member: true,
  },
  'POST /api/payment/create-single-purchase-session': {
    summary: 'Start a checkout for one mix (12 months of hosting); answers { redirect }',
    body: { mix_id: 'string' },
    member: true,
  },
  'POST /api/payment/create-subscription-session': {
    summary: 'Start a subscription checkout (unlimited uploads); answers { redirect }',
    body: { mix_id: 'string' },
    member: true,
  },
  'POST /api/payment/configure-portal-session': { summary: 'Open the billing portal; answers { redirect }', member: true },
  'POST /api/payment/confirm-session': {
    summary: "The success page's return: looks the checkout session up and fulfils it when paid",
    body: { session_id: 'string' },
    member: true,
  },
  'GET /api/payment/earnings/{file}': {
    summary: "A period's creator rewards ledger as CSV ({file} is YYYY-MM.csv; operators only)",
    member: true,
  },
  'POST /api/payment/webhook': { summary: 'Stripe events, verified by the Stripe-Signature header on the raw body' },
  'POST /api/creator/claim': {
    summary: 'Claim a catalogue creator or label as you; a moderator decides (docs/creators.md#claims)',
    body: { subject: 'string', name: 'string', track_id: 'string', evidence: 'array', note: 'string' },
    member: true,
  },
  'GET /api/creator/claims': { summary: 'Your creator and label claims', member: true },
  'GET /api/creator/earnings': {
    summary: 'Your ledger lines per month (each with its tracks), balance and payouts (verified creators only)',
    member: true,
  },
  'GET /api/creator/earnings/tracks': {
    summary: 'Your ledger lines per month and track, of one month (?period=YYYY-MM) or all (verified creators only)',
    query: ['period'],
    member: true,
  },
  'GET /api/creator/earnings.csv': { summary: 'Your ledger lines per month and track as CSV (verified creators only)', member: true },
  'GET /api/creator/payout-account': { summary: 'Your payout account (verified creators only)', member: true },
  'POST /api/creator/payout-account': {
    summary: 'Make your payout account (Stripe Connect Express or test mode); answers { redirect } to onboarding',
    member: true,
  },
  'POST /api/payment/payouts/run': { summary: "Run this month's payouts now (operators only); safe to run again", member: true },
  'GET /api/earnings/public': { summary: 'Per month, in aggregate: the creators’ 70%, paid out, waiting to be claimed' },
  'GET /api/moderation/queue': {
    summary: 'The moderation queue (moderators and operators)',
    query: ['status', 'page', 'limit'],
    member: true,
  },
  'POST /api/moderation/queue/{id}/decision': {
    summary: 'Approve or reject a queue item (moderators and operators)',
    body: { decision: 'string', reason: 'string' },
    member: true,
  },
  'GET /api/moderation/audit': { summary: 'The audit log, newest first (operators only)', query: ['page', 'limit'], member: true },
  'POST /api/moderation/moderators': {
    summary: 'Grant or revoke the moderator role (operators only)',
    body: { member: 'string', grant: 'boolean', reason: 'string' },
    member: true,
  },
  'POST /api/reports': {
    summary: 'Report a mix or a member to the moderators (one open report per target; REPORTS_PER_HOUR an hour)',
    body: { target_kind: 'string', target_id: 'string', reason: 'string', note: 'string' },
    member: true,
  },
  'GET /api/reports/mine': { summary: 'Your reports, newest first, with what became of each', query: ['page', 'limit'], member: true },
  'POST /api/copyright-notices': {
    summary: 'File a copyright notice on a mix that plays your track (verified creators and labels of it); hides the mix at once',
    body: { mix_id: 'string', track_id: 'string', text: 'string' },
    member: true,
  },
  'GET /api/copyright-notices': { summary: 'Notices you filed and notices on your mixes, newest first', member: true },
  'GET /api/copyright-notices/{id}': { summary: 'One notice and its history (its filer, the mix’s owner, moderators)', member: true },
  'POST /api/copyright-notices/{id}/counter-notice': {
    summary: 'Answer an open notice on your mix; a moderator decides',
    body: { text: 'string' },
    member: true,
  },
  'GET /api/upload-block': { summary: 'Why and until when your uploads are refused ({ block: null } when they are not)', member: true },
  'POST /api/moderation/queue/{id}/action': {
    summary:
      'Act on a report (dismiss, hide_mix, remove_mix, warn, suspend_member) or a copyright notice (restore, remove, remove_and_strike); moderators and operators',
    body: { action: 'string', reason: 'string', suspended_until: 'string' },
    member: true,
  },
  'GET /api/moderation/queue/{id}/details': {
    summary: 'A report’s or notice’s target, recognition findings and earlier reports (moderators and operators)',
    member: true,
  },
  'POST /api/moderation/mixes/{id}/restore': {
    summary: 'Lift the hold on a mix (moderators and operators)',
    body: { reason: 'string' },
    member: true,
  },
  'POST /api/moderation/members/{id}/restore': {
    summary: 'End a member’s suspension (moderators and operators)',
    body: { reason: 'string' },
    member: true,
  },
  'GET /api/moderation/held-mixes': { summary: 'Mixes under a hold (moderators and operators)', query: ['page', 'limit'], member: true },
  'GET /api/moderation/suspended-members': {
    summary: 'Suspended members (moderators and operators)',
    query: ['page', 'limit'],
    member: true,
  },
  'GET /api/strike-policy': { summary: 'How many upheld copyright strikes within how many days block uploads' },
  'PUT /api/strike-policy': {
    summary: 'Set the repeat-infringer numbers (operators only)',
    body: { strike_limit: 'number', window_days: 'number', reason: 'string' },
    member: true,
  },
  'GET /api/transparency': {
    summary: 'Per month, newest first: reports, notices, takedowns, counter-notices, restorations, suspensions; no names',
    query: ['months'],
  },
  'POST /api/mix/get-mixes-by-genre-and-distance': {
    summary: 'The feed: public mixes by genre within a radius of a point',
    body: { genre: 'string', search_radius: 'number', from_point: 'object', page: 'number' },
  },
  'GET /api/mix/for-you': {
    summary: 'The "For you" row: each mix with why (new from a followed member, because you saved or finished, popular near you)',
    query: ['limit'],
  },
  'GET /api/search': {
    summary: 'Search mixes, members and tracks, typos forgiven (docs/search.md): a page of results, best first, with the count',
    query: ['q', 'type', 'page', 'genre', 'within_km', 'length'],
  },
  'GET /api/search/suggestions': { summary: 'Suggestions as you type: at most 8, as mixes, members and tracks', query: ['q'] },
  'GET /api/mix/by-user/{user_name}/{page}': { summary: 'A member public mixes', query: ['mix_id_to_exclude'] },
  'GET /api/mix/{id}': { summary: 'A mix' },
  'GET /api/mix/public/{id}': { summary: 'A shared mix; mix_found false when gone' },
  'POST /api/mix/play/{id}': { summary: 'Count a play' },
  'POST /api/mix/pause/{id}': { summary: 'End a listen', body: { end: 'number' }, member: true },
  'POST /api/mix/add-new-listen/{id}': { summary: 'Start a listen', body: { start: 'number' }, member: true },
  'POST /api/mix/pause-listen/{id}': { summary: 'Pause a listen', member: true },
  'POST /api/mix/heartbeat-listen/{id}': {
    summary: 'Keep a listen counted as listening now (every 20-30 s while playing); 404 when no listen is open',
    member: true,
  },
  'GET /api/mix/stats/{id}': { summary: 'Plays and listen time of a mix', member: true },
  'GET /api/mix/listeners/{id}': { summary: 'Who listened to one of the member mixes', member: true },
  'GET /api/mix/tracklist-versions/{id}': {
    summary: 'The tracklist versions of one of the member mixes, newest first (403 for anyone else)',
    query: ['first'],
    member: true,
  },
  'GET /api/oembed': { summary: 'oEmbed 1.0 for a shared mix or profile link', query: ['url', 'format', 'maxwidth', 'maxheight'] },
  'POST /api/uploads': { summary: 'tus 1.0: create a resumable MP3 upload (then pass its id to create-mix)', member: true },
  'HEAD /api/uploads/{id}': { summary: 'tus 1.0: the offset of a resumable upload', member: true },
  'PATCH /api/uploads/{id}': { summary: 'tus 1.0: send the next bytes of a resumable upload', member: true },
  'DELETE /api/uploads/{id}': { summary: 'tus 1.0: abandon a resumable upload', member: true },
};

const ERROR_BODY = {
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
  required: ['error', 'message', 'status'],
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests this client may send per window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends', schema: { type: 'integer' } },
};

/** `GET /api/mix/:id` as OpenAPI spells it: `GET /api/mix/{id}`. */
export const openApiKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:([A-Za-z_]+)/g, '{$1}')}`;

/** The OpenAPI operation of one registered method and path: its path parameters from the path, the rest from OPERATIONS. */
function describe(method: string, path: string, operation: Operation) {
  const pathParameters = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = (operation.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }));
  const fields = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(operation.body ?? {}).map(([name, type]) => [name, { type }])),
  };
  return {
    operationId: `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: operation.summary,
    tags: [path.split('/')[2] ?? 'api'],
    ...(operation.member ? { security: [{ token: [] }, { bearer: [] }] } : {}),
    ...(pathParameters.length + query.length ? { parameters: [...pathParameters, ...query] } : {}),
    ...(operation.body
      ? {
          requestBody: {
            content: {
              'application/json': { schema: fields },
              ...(operation.multipart ? { 'multipart/form-data': { schema: fields } } : {}),
            },
          },
        }
      : {}),
    responses: {
      '2XX': { description: 'Success', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: { type: 'object' } } } },
      '4XX': {
        description: 'Refused: the message says why (400 bad input, 401 no or bad token, 404 not found, 429 rate limit with Retry-After)',
        content: { 'application/json': { schema: ERROR_BODY } },
      },
    },
  };
}

type Paths = Record<string, Record<string, unknown>>;

/**
 * Each registered path keeps its documented methods, described from OPERATIONS. A path with none (a route added
 * without an entry) shows as "Undocumented", so the drift test catches it; the tus paths, registered for every
 * method, keep only the ones the protocol uses.
 */
function describePaths(paths: Paths): Paths {
  return Object.fromEntries(
    Object.entries(paths).map(([path, methods]) => {
      const registered = Object.keys(methods);
      const documented = registered.filter((method) => OPERATIONS[openApiKey(method, path)]);
      const described = documented.length > 0 ? documented : registered;
      return [
        path,
        Object.fromEntries(
          described.map((method) => [method, describe(method, path, OPERATIONS[openApiKey(method, path)] ?? { summary: 'Undocumented' })]),
        ),
      ];
    }),
  );
}

/**
 * OpenAPI 3.1 of the REST paths at /api/openapi.json, generated from the registered routes, and a reference page at
 * /docs (Swagger UI, served from our own files). Registered before the routes so every one is seen. Input is
 * checked by the services (zod, see shared/inputs.ts), so these schemas document the wire and validate nothing.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'mixcrate REST API',
        version: '1.0.0',
        description:
          'The paths (docs/public-api.md#rest-paths). GraphQL (the full API, with subscriptions) is at /graphql. Every answer carries RateLimit-* headers; 429 answers carry Retry-After.',
      },
      servers: [{ url: config.PUBLIC_URL }],
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'x-auth-token' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    // Pages, GraphQL and the probes stay out. Every /api route stays in, described or not, so the test that compares
    // the document with OPERATIONS fails when a new route has no entry.
    transform: ({ url, route }) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const ownApiRoute = url.startsWith('/api/') && route.schema?.hide !== true;
      const documented = ownApiRoute || methods.some((method) => OPERATIONS[openApiKey(method, url)]);
      return { url, schema: documented ? {} : { hide: true } };
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? { ...document.openapiObject, paths: describePaths(document.openapiObject.paths as Paths) }
        : document.swaggerObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, staticCSP: false });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
