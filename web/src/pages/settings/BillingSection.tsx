import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import {
  BillingDocument,
  type BillingQuery,
  OpenBillingPortalDocument,
  StartSinglePurchaseDocument,
  StartSubscriptionDocument,
} from '../../gql/graphql';
import { formatDate, formatPrice } from '../../lib/format';
import { serverMessage } from '../../lib/server-message';
import { goToCheckout } from '../../upload/checkout';
import styles from './SettingsPage.module.css';

type Billing = BillingQuery['billing'];
type HostedMix = Billing['mixes'][number];

const HOSTING_LABELS: Record<HostedMix['hosting'], string> = {
  CODE: 'BETA code',
  SINGLE: 'Single purchase',
  SUBSCRIPTION: 'Subscription',
};

/** The member's plan in words: the subscription's state and when it renews or ends. */
export function planText(billing: Pick<Billing, 'subscribed' | 'subscription' | 'subscriptionCents'>): string {
  const subscription = billing.subscription;
  if (billing.subscribed && subscription) {
    const end = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : null;
    if (subscription.cancelAtPeriodEnd) return end ? `Subscription: canceled, ends ${end}` : 'Subscription: canceled';
    return end ? `Subscription: active, renews ${end}` : 'Subscription: active';
  }
  if (subscription?.endedAt) return `No subscription (the last one ended ${formatDate(subscription.endedAt)})`;
  return `No subscription: single uploads, or unlimited uploads for ${formatPrice(billing.subscriptionCents)} a month`;
}

/** When a mix's hosting ends, in words. */
export function hostingText(hosted: Pick<HostedMix, 'hosting' | 'expiresAt' | 'isExpired'>): string {
  if (hosted.isExpired) return hosted.expiresAt ? `Hosting ended ${formatDate(hosted.expiresAt)}` : 'Hosting ended';
  if (!hosted.expiresAt) return 'Hosted while your subscription is active';
  return `Hosting ends ${formatDate(hosted.expiresAt)}`;
}

/**
 * /settings billing (docs/payments.md#billing): the current plan, the billing portal (Stripe's, or the test-mode billing page), and each
 * published mix with how it is hosted, when hosting ends, and Renew (another single purchase) where it applies.
 */
export function BillingSection() {
  const { data, loading, error } = useQuery(BillingDocument, { fetchPolicy: 'cache-and-network' });
  const [openPortal, portal] = useMutation(OpenBillingPortalDocument);
  const [startSubscription, subscribing] = useMutation(StartSubscriptionDocument);
  const [renew, renewing] = useMutation(StartSinglePurchaseDocument);
  const [problem, setProblem] = useState<string | null>(null);
  const billing = data?.billing;

  async function leaveFor(action: () => Promise<string | undefined>) {
    setProblem(null);
    try {
      const redirect = await action();
      if (!redirect) throw new Error('No address to go to');
      goToCheckout(redirect);
    } catch (failure) {
      setProblem(serverMessage(failure, 'That did not work. Please try again.'));
    }
  }

  const busy = portal.loading || subscribing.loading || renewing.loading;
  return (
    <section className={styles.section} aria-labelledby="billing-title">
      <h2 id="billing-title" className={styles.sectionTitle}>
        Billing
      </h2>
      {loading && !billing ? <Spinner label="Loading billing" size="small" /> : null}
      {error && !billing ? <p className={styles.text}>Billing could not be loaded. Please try again later.</p> : null}
      {billing ? (
        <>
          <p className={styles.text}>
            <strong className={styles.plan}>{planText(billing)}</strong>
          </p>
          {billing.testMode ? <p className={styles.hint}>Test mode: checkout and billing are simulated, no card is charged.</p> : null}
          <div className={styles.buttons}>
            {billing.canOpenPortal ? (
              <button
                type="button"
                className={buttons.secondary}
                disabled={busy}
                onClick={() => void leaveFor(async () => (await openPortal()).data?.createPortalSession.redirect)}
              >
                Manage billing
              </button>
            ) : null}
            {billing.subscribed ? null : (
              <button
                type="button"
                className={buttons.primary}
                disabled={busy}
                onClick={() =>
                  void leaveFor(async () => (await startSubscription({ variables: {} })).data?.createSubscriptionSession.redirect)
                }
              >
                Subscribe for {formatPrice(billing.subscriptionCents)} a month
              </button>
            )}
          </div>
          {billing.openBetaCode ? (
            <p className={styles.text}>
              Uploads are also free during the beta with the code <strong className={styles.code}>{billing.openBetaCode}</strong>.
            </p>
          ) : null}
          <h3 className={styles.subTitle}>Your mixes</h3>
          {billing.mixes.length === 0 ? (
            <p className={styles.text}>
              No published mixes yet. <Link to="/upload">Upload a mix</Link>
            </p>
          ) : (
            <ul className={styles.mixes}>
              {billing.mixes.map((hosted) => (
                <li key={hosted.mix.id} className={styles.mixRow}>
                  <img src={hosted.mix.coverUrl} alt="" width={48} height={48} className={styles.mixCover} />
                  <div className={styles.mixText}>
                    <Link to={`/mix/${hosted.mix.id}`}>{hosted.mix.title}</Link>
                    <span className={styles.hint}>
                      {HOSTING_LABELS[hosted.hosting]} · {hostingText(hosted)}
                    </span>
                  </div>
                  {hosted.canRenew ? (
                    <button
                      type="button"
                      className={buttons.secondary}
                      disabled={busy}
                      aria-label={`Renew ${hosted.mix.title} for 12 months (${formatPrice(billing.singlePurchaseCents)})`}
                      onClick={() =>
                        void leaveFor(
                          async () => (await renew({ variables: { mixId: hosted.mix.id } })).data?.createSinglePurchaseSession.redirect,
                        )
                      }
                    >
                      Renew
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {problem ? (
            <div className={styles.alert} role="alert">
              {problem}
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
