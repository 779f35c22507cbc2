import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';

/** Issue 28: creator claims, the moderation queue, its audit log and the moderator role (docs/creators.md, docs/moderation.md). */

let t: TestApp;
let operator: Member;
let moderator: Member;
let trackId: string;

const rest = (method: 'GET' | 'POST', url: string, member?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, payload, headers: member ? { 'x-auth-token': member.token } : {} });

const CLAIM = `mutation Claim($input: ClaimCreatorInput!) { claimCreator(input: $input) { id subjectName status isDispute } }`;
const QUEUE = '{ moderationQueue { totalCount items { id kind subjectId summary links raisedBy { userName } } } }';
const DECIDE = `mutation Decide($input: DecideModerationInput!) { decideModerationItem(input: $input) { id status } }`;

async function claim(member: Member, name = 'Tomi Sato', subject = 'CREATOR') {
  const result = await gql<{ claimCreator: { id: string; status: string; isDispute: boolean } }>(
    t.app,
    CLAIM,
    { input: { subject, name, trackId, evidence: ['https://tomisato.example/about'], note: 'My own label page' } },
    member.token,
  );
  expect(result.errors).toBeUndefined();
  return result.data?.claimCreator as { id: string; status: string; isDispute: boolean };
}

async function queueItemOf(claimId: string) {
  const queue = await gql<{ moderationQueue: { items: { id: string; kind: string; subjectId: string; links: string[] }[] } }>(
    t.app,
    QUEUE,
    {},
    moderator.token,
  );
  const item = queue.data?.moderationQueue.items.find((entry) => entry.subjectId === claimId);
  expect(item).toBeDefined();
  return item as { id: string; kind: string; subjectId: string; links: string[] };
}

const decide = (member: Member, itemId: string, decision: 'APPROVE' | 'REJECT', reason?: string) =>
  gql<{ decideModerationItem: { status: string } }>(t.app, DECIDE, { input: { itemId, decision, reason } }, member.token);

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://mixcrate.test' });
  operator = await signUpMember(t.app);
  moderator = await signUpMember(t.app);
  await t.services.roles.grant(operator.email, 'operator');
  await t.services.roles.grant(moderator.email, 'moderator');
  await new CatalogueService(t.services.orm).write([
    {
      source: 'claims',
      externalId: 'c1',
      title: 'Harbour Lights',
      creators: [{ id: 'cat-tomi', name: 'Tomi Sato' }],
      label: { id: 'cat-label', name: 'Quay Records' },
      cover: null,
      releaseDate: null,
      buy: true,
      newRelease: false,
    },
  ]);
  const [row] = await t.services.orm.em.fork().execute<{ id: string }[]>(`select id from track where external_source = 'claims'`);
  trackId = row.id;
});
afterAll(() => t.close());

describe('the moderator role and the audit log', () => {
  test('an operator grants a moderator in the app (audited); members and moderators may not grant, nor touch operators', async () => {
    const helper = await signUpMember(t.app);
    const granted = await gql<{ setModerator: boolean }>(
      t.app,
      'mutation($input: SetModeratorInput!) { setModerator(input: $input) }',
      { input: { member: helper.userName, grant: true, reason: 'Reviews claims' } },
      operator.token,
    );
    expect(granted.data?.setModerator).toBe(true);
    expect(await t.services.roles.roleOf(helper.id)).toBe('moderator');

    const member = await signUpMember(t.app);
    for (const actor of [member, moderator]) {
      const refused = await rest('POST', '/api/moderation/moderators', actor, { member: member.userName, grant: true });
      expect(refused.statusCode).toBe(403);
    }
    const demote = await rest('POST', '/api/moderation/moderators', operator, { member: operator.email, grant: false });
    expect(demote.statusCode).toBe(403);
    expect(await t.services.roles.roleOf(operator.id)).toBe('operator');

    const audit = await rest('GET', '/api/moderation/audit?limit=10', operator);
    expect(audit.statusCode).toBe(200);
    expect(audit.json().items[0]).toMatchObject({ action: 'role.grant', target_id: helper.id, reason: 'Reviews claims' });
    expect((await rest('GET', '/api/moderation/audit', moderator)).statusCode).toBe(403);
    const gqlAudit = await gql(t.app, '{ auditLog { totalCount } }', {}, member.token);
    expect(gqlAudit.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  test('members may not read or decide the queue', async () => {
    const member = await signUpMember(t.app);
    expect((await rest('GET', '/api/moderation/queue', member)).statusCode).toBe(403);
    expect((await rest('GET', '/api/moderation/queue')).statusCode).toBe(401);
    const queue = await gql(t.app, QUEUE, {}, member.token);
    expect(queue.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const { id } = await claim(member, 'Quay Records', 'LABEL');
    const item = await queueItemOf(id);
    const self = await decide(member, item.id, 'APPROVE');
    expect(self.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await rest('POST', `/api/moderation/queue/${item.id}/decision`, member, { decision: 'approve' })).statusCode).toBe(403);
    await decide(moderator, item.id, 'REJECT', 'No evidence');
  });

  test('a moderator’s own claim waits for another moderator', async () => {
    const own = await claim(moderator, 'Quay Records', 'LABEL');
    const item = await queueItemOf(own.id);
    const self = await decide(moderator, item.id, 'APPROVE');
    expect(self.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await decide(operator, item.id, 'REJECT', 'Not the label')).data?.decideModerationItem.status).toBe('REJECTED');
  });
});

describe('creator claims', () => {
  test('a claim waits in the queue; approved, the member holds the name: badge, track link, notification, e-mail, audit line', async () => {
    const tomi = await signUpMember(t.app);
    const claimed = await claim(tomi);
    expect(claimed).toMatchObject({ status: 'PENDING', isDispute: false });
    const item = await queueItemOf(claimed.id);
    expect(item).toMatchObject({ kind: 'creator_claim', links: ['https://tomisato.example/about'] });

    const decided = await decide(moderator, item.id, 'APPROVE', 'Label page matches');
    expect(decided.errors).toBeUndefined();
    expect(decided.data?.decideModerationItem.status).toBe('APPROVED');
    const again = await decide(moderator, item.id, 'REJECT');
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');

    const profile = await gql<{ user: { verifiedNames: { subject: string; name: string }[] } }>(
      t.app,
      'query($userName: String!) { user(userName: $userName) { verifiedNames { subject name } } }',
      { userName: tomi.userName },
      operator.token,
    );
    expect(profile.data?.user.verifiedNames).toEqual([{ subject: 'CREATOR', name: 'Tomi Sato' }]);
    const track = await gql<{ track: { nameHolders: { name: string; userName: string }[] } }>(
      t.app,
      'query($id: ID!) { track(id: $id) { nameHolders { name userName } } }',
      { id: trackId },
    );
    expect(track.data?.track.nameHolders).toEqual([{ name: 'Tomi Sato', userName: tomi.userName }]);

    const notices = await gql<{ notifications: { nodes: { kind: string; detail: string }[] } }>(
      t.app,
      '{ notifications(first: 5) { nodes { kind detail } } }',
      {},
      tomi.token,
    );
    expect(notices.data?.notifications.nodes[0]).toEqual({ kind: 'CLAIM_APPROVED', detail: 'Tomi Sato' });
    const outbox = join(t.config.DATA_DIR, 'outbox');
    const mails = await Promise.all((await readdir(outbox)).map((file) => readFile(join(outbox, file), 'utf8')));
    expect(mails.some((mail) => mail.includes(tomi.email) && mail.includes('verified as Tomi Sato'))).toBe(true);

    const audit = await rest('GET', '/api/moderation/audit', operator);
    expect(audit.json().items[0]).toMatchObject({ action: 'creator_claim.approve', target_id: claimed.id, reason: 'Label page matches' });

    // Claiming what one holds, or claiming twice while pending, is a conflict.
    const mine = await rest('POST', '/api/creator/claim', tomi, { subject: 'creator', name: 'tomi sato', evidence: ['https://x.example'] });
    expect(mine.statusCode).toBe(409);
  });

  test('a second claim on a held name is a dispute; approving it moves the name, the first holder loses it', async () => {
    const [first, second] = [await signUpMember(t.app), await signUpMember(t.app)];
    const name = 'Quay Records';
    const firstClaim = await claim(first, name, 'LABEL');
    await decide(moderator, (await queueItemOf(firstClaim.id)).id, 'APPROVE');
    const dispute = await rest('POST', '/api/creator/claim', second, {
      subject: 'label',
      name,
      track_id: trackId,
      evidence: ['https://quay.example/team'],
      note: 'I run the label now',
    });
    expect(dispute.statusCode, dispute.body).toBe(201);
    expect(dispute.json()).toMatchObject({ status: 'pending', is_dispute: true });
    const pending = await rest('POST', '/api/creator/claim', second, { subject: 'label', name, evidence: ['https://quay.example/team'] });
    expect(pending.statusCode).toBe(409);
    const item = await queueItemOf(dispute.json().id);
    expect(item.kind).toBe('claim_dispute');
    await decide(moderator, item.id, 'APPROVE', 'Company register');
    expect(await t.services.creators.heldBy(first.id)).toEqual([]);
    expect((await t.services.creators.heldBy(second.id)).map((held) => held.name)).toEqual([name]);
    const claims = await rest('GET', '/api/creator/claims', first);
    expect(claims.json().claims[0]).toMatchObject({ status: 'revoked' });
  });

  test('bad claims are clear 4xx: unknown names, foreign tracks, missing or unsafe evidence, signed out', async () => {
    const member = await signUpMember(t.app);
    const base = { subject: 'creator', name: 'Tomi Sato', evidence: ['https://ok.example'] };
    expect((await rest('POST', '/api/creator/claim', undefined, base)).statusCode).toBe(401);
    expect((await rest('POST', '/api/creator/claim', member, { ...base, name: 'Nobody At All' })).statusCode).toBe(404);
    expect((await rest('POST', '/api/creator/claim', member, { ...base, track_id: 'nope' })).statusCode).toBe(404);
    expect((await rest('POST', '/api/creator/claim', member, { ...base, evidence: [] })).statusCode).toBe(400);
    expect((await rest('POST', '/api/creator/claim', member, { ...base, evidence: ['javascript:alert(1)'] })).statusCode).toBe(400);
    expect((await rest('POST', '/api/creator/claim', member, { ...base, subject: 'god' })).statusCode).toBe(400);
  });

  test('a member files at most 5 claims a day (GraphQL and REST count together); the 6th is a 429 saying when to retry', async () => {
    const member = await signUpMember(t.app);
    const input = { subject: 'CREATOR', name: 'Quay Records Artist', trackId, evidence: ['https://ok.example'] };
    await claim(member, 'Tomi Sato');
    // Refused claims count too, once well formed: each asked a moderator's question of the server.
    const body = { subject: 'creator', name: 'Tomi Sato', track_id: trackId, evidence: ['https://ok.example'] };
    for (let i = 0; i < 4; i++) expect((await rest('POST', '/api/creator/claim', member, body)).statusCode).toBe(409);
    const refused = await rest('POST', '/api/creator/claim', member, body);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many creator claims: at most 5 in a day\. Please try again in 2[34] hours\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    const answer = await gql(t.app, CLAIM, { input }, member.token);
    expect(answer.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
    expect(answer.errors?.[0]?.message).toMatch(/Too many creator claims/);
    // Badly formed input is refused before it counts, and other members have their own day.
    expect((await rest('POST', '/api/creator/claim', member, { ...body, evidence: [] })).statusCode).toBe(400);
    expect((await rest('POST', '/api/creator/claim', await signUpMember(t.app), body)).statusCode).toBe(201);
  });
});
