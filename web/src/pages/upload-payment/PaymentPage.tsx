import { useMutation, useQuery } from '@apollo/client/react';
import { BETA_CODE, normaliseBetaCode } from '@mixcrate/api/rules';
import { type FormEvent, useId, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import {
  PaymentOptionsDocument,
  PublishDraftDocument,
  PublishPaidDocument,
  StartSinglePurchaseDocument,
  StartSubscriptionDocument,
  UploadDraftDocument,
} from '../../gql/graphql';
import { formatClock, formatPrice } from '../../lib/format';
import { serverMessage } from '../../lib/server-message';
import { useDateLabel } from '../../lib/use-date-label';
import { goToCheckout } from '../../upload/checkout';
import shared from '../../upload/Upload.module.css';
import { UploadSteps } from '../../upload/UploadSteps';
import { markPayment, readMixId } from '../../upload/upload-state';
import styles from './PaymentPage.module.css';

/** The beta code, and what a wrong one says (docs/payments.md#beta-codes). */
export const betaCodeHint = (code: string) => `Use code: ${code}`;
export const BETA_CODE_EMAIL = 'beta@mixcrate.app';
export const INVALID_CODE = {
  title: BETA_CODE.invalidTitle,
  help: `Please try again or email ${BETA_CODE_EMAIL} for a BETA code`,
} as const;

function BetaCode({ mixId }: { mixId: string }) {
  const id = useId();
  // The hint names a code only while the server accepts the well-known one.
  const openCode = useQuery(PaymentOptionsDocument).data?.billing.openBetaCode ?? null;
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ invalid: boolean; text: string } | null>(null);
  const [publish, publishing] = useMutation(PublishDraftDocument);

  async function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const normalised = normaliseBetaCode(code);
    if (normalised === '') return;
    setProblem(null);
    try {
      await publish({ variables: { mixId, code: normalised } });
      markPayment('code');
      navigate('/upload/payment/success-code');
    } catch (error) {
      const message = serverMessage(error, 'The code could not be applied. Please try again.');
      setProblem({ invalid: message.startsWith(INVALID_CODE.title), text: message });
    }
  }

  return (
    <form className={styles.code} onSubmit={apply} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={shared.sectionTitle}>
        Publish with a BETA code
      </h2>
      <div className={styles.codeRow}>
        <label htmlFor={`${id}-code`} className={shared.visuallyHidden}>
          BETA code
        </label>
        <input
          id={`${id}-code`}
          className={styles.input}
          placeholder="Got a BETA code?*"
          value={code}
          autoComplete="off"
          maxLength={BETA_CODE.maxLength}
          aria-invalid={problem ? true : undefined}
          aria-describedby={openCode ? `${id}-hint` : undefined}
          onChange={(event) => {
            setCode(event.target.value);
            setProblem(null);
          }}
        />
        <button
          type="submit"
          className={buttons.primary}
          disabled={code.trim() === '' || publishing.loading}
          aria-busy={publishing.loading || undefined}
        >
          Apply
        </button>
      </div>
      {openCode ? (
        <p id={`${id}-hint`} className={shared.text}>
          {betaCodeHint(openCode)}
        </p>
      ) : null}
      {problem ? (
        <div className={shared.alert} role="alert">
          {problem.invalid ? (
            <>
              <p>{INVALID_CODE.title}</p>
              <p>{INVALID_CODE.help}</p>
            </>
          ) : (
            <p>{problem.text}</p>
          )}
        </div>
      ) : null}
    </form>
  );
}

/**
 * Step 4 (docs/payments.md#ways-to-publish): a single purchase ($4.00, 12 months of hosting) or a subscription, each through checkout; a
 * member who subscribes already publishes at once. The mix is published by the server on its own evidence.
 */
function PaidOptions({ mixId }: { mixId: string }) {
  const navigate = useNavigate();
  const { data } = useQuery(PaymentOptionsDocument, { fetchPolicy: 'network-only' });
  const [startPurchase, purchase] = useMutation(StartSinglePurchaseDocument);
  const [startSubscription, subscription] = useMutation(StartSubscriptionDocument);
  const [publish, publishing] = useMutation(PublishPaidDocument);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = purchase.loading || subscription.loading || publishing.loading || purchase.called || subscription.called;
  const billing = data?.billing;
  if (!billing) return null;

  async function checkout(kind: 'session' | 'subscription') {
    setProblem(null);
    try {
      const answer =
        kind === 'session'
          ? (await startPurchase({ variables: { mixId } })).data?.createSinglePurchaseSession
          : (await startSubscription({ variables: { mixId } })).data?.createSubscriptionSession;
      if (!answer) throw new Error('No checkout address');
      markPayment(kind);
      goToCheckout(answer.redirect);
    } catch (error) {
      purchase.reset();
      subscription.reset();
      setProblem(serverMessage(error, 'The checkout could not be opened. Please try again.'));
    }
  }

  async function publishWithSubscription() {
    setProblem(null);
    try {
      await publish({ variables: { mixId } });
      markPayment('subscription');
      navigate('/upload/payment/success-code');
    } catch (error) {
      setProblem(serverMessage(error, 'The mix could not be published. Please try again.'));
    }
  }

  return (
    <section className={shared.section} aria-labelledby="plans-title">
      <h2 id="plans-title" className={shared.sectionTitle}>
        Or pay to publish
      </h2>
      {billing.testMode ? <p className={shared.text}>Test mode: no card is charged.</p> : null}
      <div className={styles.plans}>
        <div className={styles.plan}>
          <h3 className={shared.sectionTitle}>Single upload</h3>
          <p className={styles.price}>{formatPrice(billing.singlePurchaseCents)}</p>
          <p className={shared.text}>This mix, hosted for 12 months.</p>
          <button type="button" className={buttons.primary} disabled={busy} onClick={() => void checkout('session')}>
            Buy single upload
          </button>
        </div>
        <div className={styles.plan}>
          <h3 className={shared.sectionTitle}>Subscription</h3>
          <p className={styles.price}>
            {formatPrice(billing.subscriptionCents)}
            <span className={shared.text}> / month</span>
          </p>
          <p className={shared.text}>Unlimited uploads; 70% of the fee goes to the music creators you play.</p>
          {billing.subscribed ? (
            <button type="button" className={buttons.primary} disabled={busy} onClick={() => void publishWithSubscription()}>
              Publish with your subscription
            </button>
          ) : (
            <button type="button" className={buttons.primary} disabled={busy} onClick={() => void checkout('subscription')}>
              Subscribe
            </button>
          )}
        </div>
      </div>
      {problem ? (
        <div className={shared.alert} role="alert">
          {problem}
        </div>
      ) : null}
    </section>
  );
}

/** When an unpublished draft is removed with its files (the server's DRAFT_TTL_DAYS after its last change). */
function DraftKeptUntil({ until }: { until: string }) {
  return (
    <p className={shared.notice} role="note">
      Not published yet: this draft is kept until {useDateLabel(until)}. Publish it before then, or it is removed with its files.
    </p>
  );
}

/**
 * Step 4, /upload/payment (docs/payments.md#ways-to-publish): the draft's title, cover and tracklist as the server kept them, and the ways to
 * publish it: a BETA code, a single purchase or a subscription.
 */
export function PaymentPage() {
  const mixId = readMixId();
  const { data, loading, error } = useQuery(UploadDraftDocument, {
    variables: { id: mixId ?? '' },
    skip: !mixId,
    fetchPolicy: 'network-only',
  });
  if (!mixId) return <Navigate to="/upload" replace />;
  const mix = data?.mix;

  return (
    <AppShell label="Payment" columns={1}>
      <div className={shared.page}>
        <UploadSteps current={4} />
        <h1 className={shared.title}>Publish your mix</h1>
        {loading && !mix ? <Spinner label="Loading your mix" /> : null}
        {error || (!loading && !mix) ? (
          <div className={shared.section} role="alert">
            <p>Ooops, something went wrong.</p>
            <Link to="/upload" className={buttons.secondary}>
              Back to upload
            </Link>
          </div>
        ) : null}
        {mix ? (
          <>
            <section className={`${shared.section} ${styles.summary}`} aria-label="Your mix">
              <img src={mix.coverUrl} alt={`Cover of ${mix.title}`} width={160} height={160} className={styles.cover} />
              <div className={styles.summaryText}>
                <h2 className={styles.mixTitle}>{mix.title}</h2>
                <ol className={styles.tracks} aria-label="Tracklist">
                  {mix.tracks.map((entry) => (
                    <li key={entry.position}>
                      {entry.startTime == null ? null : <span className={styles.time}>{formatClock(entry.startTime)}</span>}
                      <span>
                        {entry.track.creators.map((creator) => creator.name).join(', ')} – {entry.track.title}
                      </span>
                    </li>
                  ))}
                </ol>
              </div>
            </section>
            {mix.status === 'PUBLISHED' ? (
              <div className={shared.notice} role="status">
                This mix is published. <Link to={`/mix/${mix.id}`}>Open it</Link>
              </div>
            ) : (
              <>
                {mix.draftKeptUntil ? <DraftKeptUntil until={mix.draftKeptUntil} /> : null}
                <section className={shared.section} aria-label="Ways to publish">
                  <BetaCode mixId={mix.id} />
                </section>
                <PaidOptions mixId={mix.id} />
              </>
            )}
          </>
        ) : null}
      </div>
    </AppShell>
  );
}
