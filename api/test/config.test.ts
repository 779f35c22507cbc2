import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

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

  test('beta codes are trimmed and lower-cased; empty values fall back to defaults', () => {
    expect(loadConfig({ BETA_CODES: ' Free-Mix , VIP ', PORT: '' }).BETA_CODES).toEqual(['free-mix', 'vip']);
    expect(loadConfig({ PORT: '' }).PORT).toBe(4000);
  });
});
