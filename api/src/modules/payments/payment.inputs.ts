import { z } from 'zod';
import { isUuid } from '../../shared/cursor.js';
import { idOrNull, pageSize, storable, text } from '../../shared/inputs.js';
import { BETA_CODE, EARNINGS_CREATOR_MAX, normaliseBetaCode } from '../../shared/rules.js';
import { paymentInputMessages as messages } from './payment.errors.js';

/** The input schema of every payments operation. */

/** A checkout session id as Stripe (cs_...) and the test mode (cs_test_mixcrate_...) make them. */
export const sessionIdInput = z.string({ error: messages.sessionId }).regex(/^[A-Za-z0-9_]{4,255}$/, messages.sessionId);

export const publishInput = z.object({
  mixId: idOrNull,
  code: storable(z.string({ error: messages.code }).max(BETA_CODE.maxLength))
    .transform(normaliseBetaCode)
    .nullish()
    .transform((code) => code || null),
  sessionId: sessionIdInput.nullish().transform((id) => id ?? null),
});

export const singlePurchaseInput = z.object({ mixId: idOrNull });

/** The subscription may be bought during an upload (the draft's id rides along to the success page) or on its own. */
export const subscriptionInput = z.object({
  mixId: z
    .unknown()
    .transform((value): string | null | undefined =>
      value === undefined || value === null || value === '' ? undefined : isUuid(value) ? value : null,
    ),
});

export const periodInput = z.string({ error: messages.period }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, messages.period);

/** A verified creator's per-track lines: one month, or every month (docs/creators.md#earnings). */
export const creatorTracksInput = z.object({ period: periodInput.nullish().transform((period) => period ?? null) });

/** The most creators one earnings answer lists (the CSV export has them all). */
export const MAX_EARNINGS_PAGE = 1000;

export const earningsInput = z.object({
  period: periodInput,
  creator: text(EARNINGS_CREATOR_MAX)
    .nullish()
    .transform((creator) => creator || null),
  first: pageSize(MAX_EARNINGS_PAGE, 100),
});
