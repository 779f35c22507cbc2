import { describe, expect, it } from 'vitest';
import { trustNotice } from './trust-notifications';

describe('trust notifications', () => {
  it('read as sentences about the member’s own mix or notice, with where to go', () => {
    expect(trustNotice('MIX_NOTICE', 'Holt tapes')).toEqual({
      text: 'A copyright notice hid your mix “Holt tapes”: read it and answer',
      to: '/notices',
    });
    expect(trustNotice('NOTICE_COUNTERED', 'Holt tapes')?.text).toBe('The owner of “Holt tapes” answered your copyright notice');
    expect(trustNotice('MIX_RESTORED', null)?.text).toBe('Your mix is restored');
    expect(trustNotice('NOTICE_DECIDED', null)?.text).toBe('A moderator decided your copyright notice on a mix');
    expect(trustNotice('WARNED', 'Spam run')).toEqual({ text: 'A moderator warned you: Spam run', to: '/reports' });
    expect(trustNotice('WARNED', '')?.text).toBe('A moderator warned you');
    expect(trustNotice('REPORT_DECIDED', 'hide_mix')).toEqual({
      text: 'A moderator acted on your report: the mix was hidden',
      to: '/reports',
    });
    expect(trustNotice('REPORT_DECIDED', 'dismiss')?.text).toBe('A moderator looked at your report and dismissed it');
  });

  it('leave follows and claims to their own words', () => {
    expect(trustNotice('FOLLOWED', null)).toBeNull();
    expect(trustNotice('CLAIM_APPROVED', 'Tomi Sato')).toBeNull();
  });
});
