import { z } from 'zod';
import { idOrNull, text } from '../../shared/inputs.js';
import { CLAIM_NOTE_MAX, TRACK_CREATOR_MAX } from '../../shared/rules.js';
import { creatorInputMessages as messages } from './creator.errors.js';
import { CLAIM_SUBJECTS } from './creator-claim.entity.js';

export const EVIDENCE_MAX = 5;

const link = text(500).pipe(
  z.string().refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, messages.evidence),
);

/** A claim: which creator or label (by name, optionally on the track it was claimed from), the evidence links, a note. */
export const claimInput = z.object({
  /** Left out: the whole catalogue is searched; given but not one of our ids: the track is not found (null). */
  trackId: z
    .unknown()
    .optional()
    .transform((value): string | null | undefined =>
      value === undefined || value === null || value === '' ? undefined : idOrNull.parse(value),
    ),
  subject: z.enum(CLAIM_SUBJECTS, { error: messages.subject }),
  name: text(TRACK_CREATOR_MAX).pipe(z.string().min(1, messages.name)),
  evidence: z.array(link, { error: messages.evidence }).min(1, messages.evidence).max(EVIDENCE_MAX, messages.evidence),
  note: text(CLAIM_NOTE_MAX)
    .nullish()
    .transform((value) => value ?? ''),
});
