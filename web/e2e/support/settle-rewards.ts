/**
 * Run under the API's tsx (cwd api/): `node --import tsx ../web/e2e/support/settle-rewards.ts DATABASE_URL`.
 * Settles the rewards ledger as the payments sweep does once paid periods are over: here as of 40 days from now, so
 * the journeys' fresh subscription payments count as over. Prints how many payments it settled.
 */
import pino from 'pino';
import { openOrm } from '../../../api/src/db/orm.js';
import { settleRewards } from '../../../api/src/modules/payments/commands/settle-rewards.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const [databaseUrl] = process.argv.slice(2);
if (!databaseUrl) throw new Error('usage: settle-rewards.ts DATABASE_URL');
const orm = await openOrm(databaseUrl, pino({ level: 'silent' }));
try {
  process.stdout.write(`${await settleRewards(orm, new Date(Date.now() + 40 * DAY_MS), true)}\n`);
} finally {
  await orm.close();
}
