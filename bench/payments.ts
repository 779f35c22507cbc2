/**
 * Payments at volume: signed Stripe webhooks through the whole app (the real SDK verifying each signature, fulfilment,
 * publishing), one at a time and 10 at once, and the creator rewards settlement of many subscribers' paid periods.
 * Targets: a webhook answered in under 50 ms at p95 one at a time; 1,000 subscribers' periods settled in under 30 s.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../api/src/config.js';
import { migrate, openOrm } from '../api/src/db/orm.js';
import { buildApp } from '../api/src/http/app.js';
import { settleRewards } from '../api/src/modules/payments/commands/settle-rewards.js';
import { createServices } from '../api/src/services.js';
import { startStripeStandIn } from '../api/test/support/stripe-stand-in.js';
import { benchDatabase, out } from './support.js';

const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 300);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const LISTENS_PER_SUBSCRIBER = 12;
const MIXES = 50;
const TRACKS_PER_MIX = 12;
const SECRET = 'whsec_bench_secret_value';
const TARGET_WEBHOOK_P95_MS = 50;
const TARGET_SETTLE_S = 30;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function main() {
  const database = await benchDatabase();
  const stripe = await startStripeStandIn();
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-payments-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_URL: stripe.url,
  });
  const orm = await openOrm(database.url);
  await migrate(orm);
  const services = await createServices(config, orm, pino({ level: 'silent' }));
  const app = await buildApp(services);
  const sql = (query: string, params: unknown[] = []) => orm.em.fork().execute(query, params);
  try {
    // Members, and drafts with their tracklists (manual tracks, each by two creators, timed one minute apart).
    await sql(
      `insert into app_user (id, email, password_hash, has_opted_in, user_name, user_type, is_agreed_to_conduct, created_at, updated_at, current_mix_pos)
       select gen_random_uuid(), 'bench' || n || '@example.com', 'x', false, 'bench_' || n, 'listener', true, now(), now(), 0 from generate_series(1, ?) n`,
      [SUBSCRIBERS + WEBHOOKS],
    );
    const members = (await sql('select id from app_user order by user_name')) as { id: string }[];
    await sql(
      `insert into mix (id, owner_id, title, genre, cover, mp3, status, duration_seconds, created_at, updated_at)
       select gen_random_uuid(), u.id, 'Bench mix', 'house', md5(u.id::text) || '.jpg', md5(u.id::text) || '.mp3', 'draft', ?, now(), now()
         from app_user u`,
      [TRACKS_PER_MIX * 60],
    );
    await sql(
      `insert into track (id, title, creators, is_manual, buy, new_release, popularity, created_at)
       select gen_random_uuid(), 'Track ' || n, jsonb_build_array(jsonb_build_object('id', null, 'name', 'Artist ' || (n % 400)), jsonb_build_object('id', null, 'name', 'Artist ' || ((n * 7) % 400))), true, false, false, 0, now()
         from generate_series(1, ?) n`,
      [MIXES * TRACKS_PER_MIX],
    );
    await sql(
      `insert into mix_track (id, mix_id, track_id, position, start_time, end_time)
       select gen_random_uuid(), m.id, t.id, (t.n - 1) % ?, ((t.n - 1) % ?) * 60, ((t.n - 1) % ?) * 60 + 60
         from (select id, row_number() over (order by created_at, id) as k from mix) m
         join (select id, row_number() over (order by title) as n from track) t on (t.n - 1) / ? = (m.k - 1) % ?`,
      [TRACKS_PER_MIX, TRACKS_PER_MIX, TRACKS_PER_MIX, TRACKS_PER_MIX, MIXES],
    );

    // Webhooks: one checkout.session.completed per draft, signed, posted through the app.
    const buyers = members.slice(0, WEBHOOKS);
    const mixOf = new Map(
      ((await sql('select id, owner_id from mix')) as { id: string; owner_id: string }[]).map((row) => [row.owner_id, row.id]),
    );
    const events = await Promise.all(
      buyers.map(async (buyer) => {
        const { redirect } = await services.payments.checkout.createSinglePurchaseSession(buyer.id, mixOf.get(buyer.id));
        const session = [...stripe.sessions.values()].find((candidate) => candidate.url === redirect) ?? {};
        return stripe.signedEvent('checkout.session.completed', stripe.pay(session.id as string), SECRET);
      }),
    );
    const post = async (event: { payload: string; signature: string }) => {
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        payload: event.payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      });
      if (response.statusCode !== 200) throw new Error(`webhook answered ${response.statusCode}: ${response.body}`);
      return performance.now() - started;
    };
    const half = Math.floor(events.length / 2);
    const serial: number[] = [];
    for (const event of events.slice(0, half)) serial.push(await post(event));
    const concurrentStarted = performance.now();
    const concurrent: number[] = [];
    const queue = events.slice(half);
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let event = queue.shift(); event; event = queue.shift()) concurrent.push(await post(event));
      }),
    );
    const concurrentSeconds = (performance.now() - concurrentStarted) / 1000;
    const published = ((await sql("select count(*)::int as n from mix where status = 'published'")) as { n: number }[])[0].n;
    serial.sort((a, b) => a - b);
    concurrent.sort((a, b) => a - b);

    // Rewards: every subscriber with a paid period last month and listens to the published mixes in it.
    const subscribers = members.slice(WEBHOOKS);
    await sql(
      `insert into subscription (id, user_id, provider, provider_ref, status, cancel_at_period_end, state_as_of, created_at)
       select gen_random_uuid(), u.id, 'test', 'sub_bench_' || u.id, 'active', false, now(), now() from app_user u where u.id = any(?::uuid[])`,
      [`{${subscribers.map((member) => member.id).join(',')}}`],
    );
    await sql(
      `insert into subscription_payment (id, subscription_id, provider_ref, amount_cents, currency, period_start, period_end, paid_at)
       select gen_random_uuid(), s.id, 'in_bench_' || s.id, 999, 'usd', '2026-01-01', '2026-02-01', '2026-01-01' from subscription s`,
    );
    const mixIds = ((await sql("select id from mix where status = 'published' order by id limit ?", [MIXES])) as { id: string }[]).map(
      (row) => row.id,
    );
    await sql(
      `insert into listen (id, mix_id, user_id, started_at, ended_at, alive_at)
       select id, mix_id, user_id, started_at, ended_at, ended_at
         from (select gen_random_uuid() as id, (?::uuid[])[1 + (abs(hashtext(s.user_id::text || n)) % ?)] as mix_id, s.user_id,
                      '2026-01-02'::timestamptz + make_interval(hours => n * 5) as started_at,
                      '2026-01-02'::timestamptz + make_interval(hours => n * 5, secs => 20 + abs(hashtext(s.user_id::text || n)) % 700) as ended_at
                 from subscription s, generate_series(1, ?) n) as generated`,
      [`{${mixIds.join(',')}}`, mixIds.length, LISTENS_PER_SUBSCRIBER],
    );
    const settleStarted = performance.now();
    const settled = await settleRewards(orm, new Date(), true, 1_000_000);
    const settleSeconds = (performance.now() - settleStarted) / 1000;
    const [check] = (await sql(
      `select count(*)::int as lines, sum(amount_cents)::int as cents, (select sum(amount_cents)::int from subscription_payment) as paid from reward_allocation`,
    )) as { lines: number; cents: number; paid: number }[];
    // Every line's tracks add up to the line (docs/payments.md#per-track-lines): the count of lines that do not.
    const [tracks] = (await sql(
      `select (select count(*)::int from reward_allocation_track) as lines,
              count(*) filter (where a.creator_key is not null and coalesce(t.cents, -1) <> a.amount_cents)::int as off
         from reward_allocation a
         left join (select allocation_id, sum(amount_cents)::int as cents from reward_allocation_track group by allocation_id) t
           on t.allocation_id = a.id`,
    )) as { lines: number; off: number }[];

    out(
      `payments bench (load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')})`,
    );
    out(
      `  webhooks one at a time: ${serial.length} events, p50 ${percentile(serial, 50).toFixed(1)} ms, p95 ${percentile(serial, 95).toFixed(1)} ms (target < ${TARGET_WEBHOOK_P95_MS} ms)`,
    );
    out(
      `  webhooks 10 at once:   ${concurrent.length} events, ${(concurrent.length / concurrentSeconds).toFixed(0)} events/s, p95 ${percentile(concurrent, 95).toFixed(1)} ms`,
    );
    out(`  mixes published by webhooks: ${published} of ${WEBHOOKS}`);
    out(
      `  rewards: ${settled} paid periods (${LISTENS_PER_SUBSCRIBER} listens each) settled in ${settleSeconds.toFixed(1)} s, ${(settled / settleSeconds).toFixed(0)}/s (target ${SUBSCRIBERS} in < ${TARGET_SETTLE_S} s)`,
    );
    out(
      `  ledger: ${check.lines} lines, ${check.cents} cents = 70% of ${check.paid} cents rounded per payment: ${check.cents === SUBSCRIBERS * 699 ? 'exact' : 'MISMATCH'}`,
    );
    out(
      `  per-track lines: ${tracks.lines}, every creator line exactly its tracks: ${tracks.off === 0 ? 'exact' : `${tracks.off} MISMATCH`}`,
    );
  } finally {
    await app.close();
    await services.close();
    await orm.close();
    await stripe.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
