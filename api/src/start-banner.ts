import { join } from 'node:path';
import { DEMO_LOGINS } from './demo-world/plan.js';

export interface StartFacts {
  url: string;
  processes: number;
  ms: number;
  hasDemoLogins: boolean;
  /** The demo world is being built in the background: its logins work once it is ready. */
  buildsDemoWorld?: boolean;
  dataDir: string;
  databaseUrl?: string;
  gcsBucket?: string;
}

/** The address without its password (nor query options, which may carry one): safe to print. */
export function databaseAddress(databaseUrl: string): string {
  const address = new URL(databaseUrl);
  const user = address.username ? `${address.username}@` : '';
  return `${address.protocol}//${user}${address.host}${address.pathname}`;
}

/** What a newcomer needs once the start is done: where to go, how to sign in, where their data is. */
export function startBanner(facts: StartFacts): string {
  const seconds = (facts.ms / 1000).toFixed(1);
  const processes = facts.processes > 1 ? `, ${facts.processes} processes` : '';
  const lines = [`mixcrate is ready at ${facts.url}  (${seconds} s${processes})`, ''];
  if (facts.buildsDemoWorld) {
    lines.push('demo world  building in the background (about a minute; progress below, then its logins)');
  } else if (facts.hasDemoLogins) {
    lines.push(
      `sign in     ${DEMO_LOGINS.dj.email} / ${DEMO_LOGINS.dj.password}  (a DJ)`,
      `            ${DEMO_LOGINS.listener.email} / ${DEMO_LOGINS.listener.password}  (a listener)`,
    );
  }
  lines.push(
    `database    ${facts.databaseUrl ? databaseAddress(facts.databaseUrl) : `embedded PostgreSQL in ${join(facts.dataDir, 'postgres')}`}`,
    `files       ${facts.dataDir}${facts.gcsBucket ? ` (media in gs://${facts.gcsBucket})` : ''}`,
    '',
    'Ctrl-C stops it.',
  );
  return `\n${lines.map((line) => (line ? `  ${line}` : '')).join('\n')}\n\n`;
}
