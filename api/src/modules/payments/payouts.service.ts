import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { type RolesService, rolePolicy } from '../roles/index.js';
import { earningsPolicy } from './earnings.policy.js';
import { PaymentErrors } from './payment.errors.js';
import type { PaymentsContext } from './payments-context.js';
import type { PayoutAccountStatus, PayoutStatus } from './payout.entity.js';
import type { PayoutProvider } from './providers/payout-provider.js';
import { TestModePayouts } from './providers/test-payouts.js';

/** Who holds which creator names (the creators module; services.ts hands it in). */
export interface CreatorHolders {
  creatorKeysOf(userId: string): Promise<string[]>;
  allHolders(): Promise<{ userId: string; keys: string[] }[]>;
}

export interface PayoutAccountView {
  provider: string;
  status: PayoutAccountStatus;
}

export interface PayoutRun {
  period: string;
  paid: number;
  failed: number;
  skipped: number;
}

interface PayoutRow {
  id: string;
  user_id: string;
  amount_cents: number;
  account_ref: string;
  idempotency_key: string;
  status: PayoutStatus;
  period: string;
}

/** The month (UTC, 'YYYY-MM') a payout run pays for. */
export const payoutPeriodOf = (now: Date) => now.toISOString().slice(0, 7);

/**
 * Payouts (docs/creators.md#payouts): a verified creator's payout account, and the monthly run that pays each holder's
 * settled, unpaid ledger lines as one transfer per creator and period. The run reserves the lines for the payout in
 * one transaction, then asks the provider with the payout's idempotency key; a crash or a failed transfer leaves the
 * payout pending or failed, and the next run asks again with the same key, so nothing is paid twice. Lines of names
 * nobody holds wait, unpaid, until a member is verified for them.
 */
export class PayoutsService {
  private readonly testPayouts = new TestModePayouts();

  constructor(
    private readonly context: PaymentsContext,
    private readonly roles: RolesService,
    private readonly holders: CreatorHolders,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Stripe when configured, else the test mode where it is allowed, else none (503). */
  get provider(): PayoutProvider {
    if (this.context.stripe) return this.context.stripe;
    if (this.context.testMode) return this.testPayouts;
    throw PaymentErrors.notConfigured();
  }

  async account(viewerId: string): Promise<PayoutAccountView | null> {
    earningsPolicy.assertCreator(await this.holders.creatorKeysOf(viewerId));
    const [row] = await this.context
      .em()
      .execute<{ provider: string; status: PayoutAccountStatus }[]>('select provider, status from payout_account where user_id = ?', [
        viewerId,
      ]);
    return row ? { provider: row.provider, status: row.status } : null;
  }

  /** Makes the creator's payout account (once) and answers where to finish onboarding. */
  async connect(viewerId: string): Promise<{ url: string }> {
    earningsPolicy.assertCreator(await this.holders.creatorKeysOf(viewerId));
    const provider = this.provider;
    const em = this.context.em();
    const [held] = await em.execute<{ account_ref: string; provider: string }[]>(
      'select account_ref, provider from payout_account where user_id = ?',
      [viewerId],
    );
    let accountRef = held?.provider === provider.name ? held.account_ref : null;
    if (!accountRef) {
      const [member] = await em.execute<{ email: string }[]>('select email from app_user where id = ?', [viewerId]);
      const made = await provider.createAccount(viewerId, member?.email ?? '');
      accountRef = made.accountRef;
      await em.execute(
        `insert into payout_account (user_id, provider, account_ref, status, created_at, updated_at) values (?, ?, ?, ?, now(), now())
         on conflict (user_id) do update set provider = excluded.provider, account_ref = excluded.account_ref, status = excluded.status,
           updated_at = now()`,
        [viewerId, provider.name, made.accountRef, made.status],
      );
    }
    const back = `${this.context.config.PUBLIC_URL}/earnings`;
    return { url: await provider.onboardingLink(accountRef, `${back}?connected=1`, `${back}?connect=again`) };
  }

  /** Stripe's `account.updated`: the account's status as Stripe says it now. */
  async applyAccountStatus(em: EntityManager, accountRef: string, status: PayoutAccountStatus): Promise<void> {
    await em.execute('update payout_account set status = ?, updated_at = now() where account_ref = ?', [status, accountRef]);
  }

  /** The monthly run, from the app: operators only. */
  async runAsOperator(viewerId: string, now = new Date()): Promise<PayoutRun> {
    rolePolicy.assertCanRunPayouts(await this.roles.roleOf(viewerId));
    return this.run(now);
  }

  /** Pays every holder's balance of the period (see the class); safe to run any number of times. */
  async run(now = new Date()): Promise<PayoutRun> {
    const period = payoutPeriodOf(now);
    const result: PayoutRun = { period, paid: 0, failed: 0, skipped: 0 };
    for (const holder of await this.holders.allHolders()) {
      const payout = await this.reserve(holder.userId, holder.keys, period);
      if (!payout) {
        result.skipped += 1;
        continue;
      }
      if (await this.send(payout)) result.paid += 1;
      else result.failed += 1;
    }
    return result;
  }

  /** The holder's payout of the period: the one already made and not yet paid, or a new one with its lines; null: none due. */
  private async reserve(userId: string, keys: string[], period: string): Promise<PayoutRow | null> {
    return this.context.transaction(async (em) => {
      const [account] = await em.execute<{ provider: string; account_ref: string; status: PayoutAccountStatus }[]>(
        'select provider, account_ref, status from payout_account where user_id = ? for update',
        [userId],
      );
      if (!account || !earningsPolicy.canReceive(account.status)) return null;
      const [existing] = await em.execute<PayoutRow[]>('select * from payout where user_id = ? and period = ? for update', [
        userId,
        period,
      ]);
      if (existing) return earningsPolicy.needsTransfer(existing.status) ? existing : null;
      const [balance] = await em.execute<{ cents: string | null }[]>(
        `select sum(amount_cents) as cents from (
           select amount_cents from reward_allocation where payout_id is null and creator_key in (?) for update) lines`,
        [keys],
      );
      const cents = Number(balance?.cents ?? 0);
      if (!earningsPolicy.shouldPay(cents, this.context.config.PAYOUT_MINIMUM_CENTS)) return null;
      const [payout] = await em.execute<PayoutRow[]>(
        `insert into payout (id, user_id, period, amount_cents, provider, account_ref, idempotency_key, status, attempts, created_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, 'pending', 0, now()) returning *`,
        [userId, period, cents, account.provider, account.account_ref, earningsPolicy.idempotencyKey(userId, period)],
      );
      await em.execute('update reward_allocation set payout_id = ? where payout_id is null and creator_key in (?)', [payout.id, keys]);
      return payout;
    });
  }

  /** One transfer attempt, with the payout's own idempotency key; answers whether it is paid. */
  private async send(payout: PayoutRow): Promise<boolean> {
    const em = this.context.em();
    try {
      const { transferRef } = await this.provider.transfer({
        accountRef: payout.account_ref,
        amountCents: payout.amount_cents,
        idempotencyKey: payout.idempotency_key,
        payoutId: payout.id,
        period: payout.period,
      });
      await em.execute(
        `update payout set status = 'paid', transfer_ref = ?, paid_at = now(), attempts = attempts + 1, last_error = null where id = ?`,
        [transferRef, payout.id],
      );
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn({ payoutId: payout.id, err: error }, 'payout transfer failed; the next run tries again');
      await em.execute(`update payout set status = 'failed', attempts = attempts + 1, last_error = ? where id = ?`, [
        message.slice(0, 1000),
        payout.id,
      ]);
      return false;
    }
  }
}
