import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { messages } from '../src/shared/rules.js';
import { createTestApp, freshIp, gql, STRONG_PASSWORD, signUpMember, type TestApp } from './support/app.js';
import { resetLinkIn, startSmtpReceiver } from './support/smtp.js';

const SENT = 'If an account exists for that email, we have sent a link to reset the password. It works once, for one hour.';

describe('password reset by email through SMTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://mixcrate.test' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, remoteAddress: freshIp() });

  test('the whole journey: ask, receive the mail, set a new password with its link, sign in; the link works once', async () => {
    const member = await signUpMember(t.app);
    const asked = await post('/api/user/reset-password', { email: member.email.toUpperCase() });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(SENT);

    expect(smtp.inbox).toHaveLength(1);
    expect(smtp.inbox[0].to).toEqual([member.email]);
    const link = resetLinkIn(smtp.inbox[0]);
    expect(link.origin).toBe('https://mixcrate.test');
    expect(link.searchParams.get('email')).toBe(member.email);
    const token = link.searchParams.get('token') as string;

    const created = await post('/api/auth/update-password', { email: member.email, token, newPassword: 'Fresh1!start' });
    expect(created.statusCode).toBe(200);
    expect(created.json().message).toBe('Password has been created');
    expect((await post('/api/auth', { email: member.email, password: 'Fresh1!start' })).statusCode).toBe(200);
    expect((await post('/api/auth', { email: member.email, password: STRONG_PASSWORD })).statusCode).toBe(401);

    const reused = await post('/api/auth/update-password', { email: member.email, token, newPassword: 'Again1!start' });
    expect(reused.statusCode).toBe(404);
    expect(reused.json().error).toBe('This reset link is invalid or has expired. Please ask for a new one.');
  });

  test('unknown emails get the same answer and no mail; malformed ones the documented 400', async () => {
    const before = smtp.inbox.length;
    const unknown = await post('/api/user/reset-password', { email: 'stranger@example.com' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().message).toBe(SENT);
    expect(smtp.inbox.length).toBe(before);
    const malformed = await post('/api/user/reset-password', { email: 'not-an-email' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe(messages.email);
  });

  test('an expired link, a link for another email, and a weak new password are refused', async () => {
    const member = await signUpMember(t.app);
    const other = await signUpMember(t.app);
    await post('/api/user/reset-password', { email: member.email });
    const token = resetLinkIn(smtp.inbox.at(-1) as never).searchParams.get('token') as string;

    const weak = await post('/api/auth/update-password', { email: member.email, token, newPassword: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe(messages.passwordRule);
    expect((await post('/api/auth/update-password', { email: other.email, token, newPassword: 'Fresh1!start' })).statusCode).toBe(404);

    await t.services.orm.em.fork().getConnection().execute(`update password_reset_token set expires_at = now() - interval '1 second'`);
    expect((await post('/api/auth/update-password', { email: member.email, token, newPassword: 'Fresh1!start' })).statusCode).toBe(404);
  });

  test('a newer link spends the older ones when used', async () => {
    const member = await signUpMember(t.app);
    await post('/api/user/reset-password', { email: member.email });
    const first = resetLinkIn(smtp.inbox.at(-1) as never).searchParams.get('token') as string;
    await post('/api/user/reset-password', { email: member.email });
    const second = resetLinkIn(smtp.inbox.at(-1) as never).searchParams.get('token') as string;
    expect((await post('/api/auth/update-password', { email: member.email, token: second, newPassword: 'Second1!pw' })).statusCode).toBe(
      200,
    );
    expect((await post('/api/auth/update-password', { email: member.email, token: first, newPassword: 'First1!pw' })).statusCode).toBe(404);
  });

  test('the same journey over GraphQL', async () => {
    const member = await signUpMember(t.app);
    const asked = await gql(t.app, `mutation ($e: String!) { requestPasswordReset(email: $e) }`, { e: member.email });
    expect(asked.data).toEqual({ requestPasswordReset: SENT });
    const token = resetLinkIn(smtp.inbox.at(-1) as never).searchParams.get('token');
    const reset = await gql(t.app, `mutation ($i: ResetPasswordInput!) { resetPassword(input: $i) }`, {
      i: { email: member.email, token, newPassword: 'Graph1!reset' },
    });
    expect(reset.data).toEqual({ resetPassword: 'Password has been created' });
  });

  test('more than three requests an hour for one email answer 429', async () => {
    const member = await signUpMember(t.app);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('/api/user/reset-password', { email: member.email })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('password reset without SMTP_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test('the mail lands in DATA_DIR/outbox', async () => {
    const member = await signUpMember(t.app);
    await t.app.inject({ method: 'POST', url: '/api/user/reset-password', payload: { email: member.email } });
    const outbox = join(t.config.DATA_DIR, 'outbox');
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    const mail = await readFile(join(outbox, files[0]), 'utf8');
    expect(mail).toContain(`To: ${member.email}`);
    expect(resetLinkIn({ to: [], raw: mail }).searchParams.get('email')).toBe(member.email);
  });
});
