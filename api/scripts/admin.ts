/**
 * `npm run admin -- grant operator EMAIL` / `npm run admin -- revoke operator EMAIL` (also `moderator`): gives or takes a
 * staff role on the database the server uses (DATABASE_URL, or the embedded one under DATA_DIR; stop the server first
 * when it runs on the embedded one). The first operator is made this way; there is no other door to it.
 */
import pino from 'pino';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { RolesService } from '../src/modules/roles/roles.service.js';
import { prepareDatabase } from '../src/server.js';
import { DomainError } from '../src/shared/errors.js';

const usage = 'usage: npm run admin -- grant|revoke operator|moderator EMAIL';

async function main(): Promise<number> {
  const [verb, role, email, ...rest] = process.argv.slice(2);
  if (!['grant', 'revoke'].includes(verb ?? '') || !role || !email || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig({ ...process.env, DEMO: '0' });
  const log = pino({ level: 'warn' });
  const database = await prepareDatabase(config, log);
  const orm = await openOrm(database.url, log);
  try {
    await migrate(orm);
    const roles = new RolesService(orm);
    if (verb === 'grant') {
      const before = await roles.grant(email, role);
      console.log(before === role ? `${email} is already ${role}` : `${email} is now ${role} (was ${before})`);
    } else {
      console.log((await roles.revoke(email, role)) ? `${email} is no longer ${role}` : `${email} was not ${role}; nothing changed`);
    }
    return 0;
  } finally {
    await orm.close();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError || error instanceof DomainError ? error.message : error);
    process.exit(error instanceof DomainError ? 2 : 1);
  },
);
