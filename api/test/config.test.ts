import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, ENV_VARIABLES, loadConfig } from '../src/config.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('configuration', () => {
  test('every variable has a default that starts the product', () => {
    const config = loadConfig({}, '/srv/mixcrate');
    expect(config).toMatchObject({
      PORT: 4000,
      DATA_DIR: '/srv/mixcrate/data',
      PUBLIC_URL: 'http://localhost:4000',
      BETA_CODES: ['free-mix'],
      isProduction: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  test('lists every invalid variable with a readable reason', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'nope' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'nope' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL: must be a URL starting with postgres:// or postgresql://');
      expect(message).toContain('SMTP_URL');
    }
  });

  test('production refuses to start without JWT_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('JWT_SECRET: required when NODE_ENV=production');
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).isProduction).toBe(true);
  });

  test('production is safe by default: no demo world, no publishing code, unless set', () => {
    const production = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    expect(production).toMatchObject({ DEMO: false, BETA_CODES: [], TRUST_PROXY: false });
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), DEMO: '1', BETA_CODES: 'vip' })).toMatchObject({
      DEMO: true,
      BETA_CODES: ['vip'],
    });
    expect(loadConfig({})).toMatchObject({ DEMO: true, BETA_CODES: ['free-mix'] });
    expect(loadConfig({ DEMO: '0' }).DEMO).toBe(false);
  });

  test('BETA_CODES=none or an empty BETA_CODES turns the codes off; none beside codes is refused', () => {
    expect(loadConfig({ BETA_CODES: 'none' }).BETA_CODES).toEqual([]);
    expect(loadConfig({ BETA_CODES: ' None ' }).BETA_CODES).toEqual([]);
    expect(loadConfig({ BETA_CODES: '' }).BETA_CODES).toEqual([]);
    expect(loadConfig({ BETA_CODES: ' , ' }).BETA_CODES).toEqual([]);
    expect(() => loadConfig({ BETA_CODES: 'none,vip' })).toThrow('BETA_CODES: none turns codes off');
  });

  test('TRUST_PROXY is a hop count or the proxies, never every hop', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.4,loopback, ::1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.4',
      'loopback',
      '::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would believe every X-Forwarded-For hop/);
    expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY: a hop count must be at most 10/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8,proxy.example.com' })).toThrow(
      /TRUST_PROXY: proxy.example.com is not an IP address/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: 10.0.0.0\/33 is not an IP address/);
  });

  test('beta codes are trimmed and lower-cased; empty values fall back to defaults', () => {
    expect(loadConfig({ BETA_CODES: ' Free-Mix , VIP ', PORT: '' }).BETA_CODES).toEqual(['free-mix', 'vip']);
    expect(loadConfig({ PORT: '' }).PORT).toBe(4000);
  });

  test('the README lists every variable in its configuration table', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    expect(ENV_VARIABLES.filter((name) => !readme.includes(`| \`${name}\``))).toEqual([]);
  });

  test('docker-compose.yml passes every payments variable through, empty (the default) unless set', async () => {
    const compose = await readFile(join(ROOT, 'docker-compose.yml'), 'utf8');
    const payments = ENV_VARIABLES.filter((name) => /^(STRIPE|PAYMENTS|SUBSCRIPTION)_/.test(name));
    expect(payments.length).toBeGreaterThanOrEqual(5);
    for (const name of [...payments, 'BETA_CODES', 'TRUST_PROXY']) expect(compose, name).toContain(`      ${name}: \${${name}:-}\n`);
  });
});
