import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { parseInput } from '../../shared/inputs.js';
import { creatorInputMessages } from './creator.errors.js';
import { claimInput, EVIDENCE_MAX } from './creator.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

const claim = { trackId: undefined, subject: 'creator', name: ' Kora Vale ', evidence: ['https://kora.example/about'] };

describe('creator inputs', () => {
  test('a claim: a subject, a name of 1 to 200 characters, 1 to 5 http(s) links, a note or none', () => {
    expect(parseInput(claimInput, claim)).toEqual({ ...claim, name: 'Kora Vale', note: '' });
    expect(parseInput(claimInput, { ...claim, subject: 'label', note: ' proof ' })).toMatchObject({ subject: 'label', note: 'proof' });
    expect(refusal(claimInput, { ...claim, subject: 'band' })).toBe(creatorInputMessages.subject);
    expect(refusal(claimInput, { ...claim, name: '  ' })).toBe(creatorInputMessages.name);
    expect(refusal(claimInput, { ...claim, name: 'n'.repeat(201) })).toBe('name must be at most 200 characters');
    expect(EVIDENCE_MAX).toBe(5);
    expect(parseInput(claimInput, { ...claim, evidence: Array(5).fill('http://kora.example') }).evidence).toHaveLength(5);
    for (const evidence of [[], Array(6).fill('https://kora.example'), 'https://kora.example', ['ftp://kora.example'], ['not a link']]) {
      expect(refusal(claimInput, { ...claim, evidence }), JSON.stringify(evidence)).toBe(creatorInputMessages.evidence);
    }
    expect(refusal(claimInput, { ...claim, evidence: [`https://kora.example/${'x'.repeat(500)}`] })).toBe(
      'evidence.0 must be at most 500 characters',
    );
    expect(refusal(claimInput, { ...claim, note: 'n'.repeat(2001) })).toBe('note must be at most 2000 characters');
  });

  test("the claim's track: left out (the whole catalogue), an id, or not one of ours (null)", () => {
    for (const none of [undefined, null, '']) expect(parseInput(claimInput, { ...claim, trackId: none }).trackId).toBeUndefined();
    // A client of the public API may leave the key out altogether.
    const { trackId: _leftOut, ...withoutTrack } = claim;
    expect(parseInput(claimInput, withoutTrack).trackId).toBeUndefined();
    expect(parseInput(claimInput, { ...claim, trackId: ID }).trackId).toBe(ID);
    expect(parseInput(claimInput, { ...claim, trackId: 'x' }).trackId).toBeNull();
  });
});
