import { useMutation, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { ConfirmCheckoutDocument, PublishPaidDocument, UploadDraftDocument } from '../../gql/graphql';
import { serverMessage } from '../../lib/server-message';
import shared from '../../upload/Upload.module.css';
import { readMixId, resetUploadState } from '../../upload/upload-state';

/** The texts of the payment result pages (docs/payments.md#result-pages). */
export const resultTexts = {
  success: 'Success',
  uploaded: 'Thanks for uploading. You can share your mix with friends and fans!',
  subscribed: 'Thanks for subscribing. We hope you enjoy the product.',
  canceled: 'Payment canceled',
  considerSubscribing: 'Consider subscribing to get the best from the product.',
} as const;

function ResultFrame({ title, text }: { title: string; text: string }) {
  return (
    <AppShell label={title} columns={1}>
      <div className={shared.page}>
        <section className={shared.section} aria-labelledby="result-title">
          <h1 id="result-title" className={shared.title}>
            {title}
          </h1>
          <p className={shared.text}>{text}</p>
          <div className={shared.actions}>
            <Link to="/home" className={buttons.primary}>
              Back to home
            </Link>
          </div>
        </section>
      </div>
    </AppShell>
  );
}

/**
 * /upload/payment/success-code: the code was applied at step 4 (or the member's subscription published the mix), and
 * the server published the mix then. The page asks the server whether the stored mix is published, and only then
 * says so and resets the upload (docs/upload.md#stored-progress).
 */
export function CodeSuccessPage() {
  const mixId = readMixId();
  const { data, loading } = useQuery(UploadDraftDocument, { variables: { id: mixId ?? '' }, skip: !mixId, fetchPolicy: 'network-only' });
  const published = data?.mix?.status === 'PUBLISHED';
  useEffect(() => {
    if (published) resetUploadState();
  }, [published]);
  if (mixId && loading) {
    return (
      <AppShell label="Publishing" columns={1}>
        <Spinner label="Checking your mix" />
      </AppShell>
    );
  }
  if (mixId && !published) return <NotPublished />;
  return <ResultFrame title={resultTexts.success} text={resultTexts.uploaded} />;
}

/** The stored draft is not published (the page was reached without publishing it). */
export function NotPublished() {
  return (
    <AppShell label="Not published yet" columns={1}>
      <div className={shared.page}>
        <section className={shared.section} role="alert">
          <h1 className={shared.title}>Not published yet</h1>
          <p className={shared.text}>Your mix has not been published: choose a way to publish it.</p>
          <div className={shared.actions}>
            <Link to="/upload/payment" className={buttons.primary}>
              Back to payment
            </Link>
          </div>
        </section>
      </div>
    </AppShell>
  );
}

type Confirmation = { state: 'working' } | { state: 'done' } | { state: 'failed'; message: string };

/**
 * What a checkout's success page does on arrival: it asks the server to publish the mix the session paid for (or,
 * for a subscription bought outside an upload, to confirm the session). The server looks the session up itself; the
 * page says 'Success' only once it has answered.
 */
function useCheckoutConfirmation(kind: 'purchase' | 'subscription'): { confirmation: Confirmation; retry(): void } {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const mixId = params.get('mix_id') ?? readMixId();
  const [publish] = useMutation(PublishPaidDocument);
  const [confirmCheckout] = useMutation(ConfirmCheckoutDocument);
  const [confirmation, setConfirmation] = useState<Confirmation>({ state: 'working' });
  const started = useRef(false);

  const run = useCallback(async () => {
    setConfirmation({ state: 'working' });
    try {
      if (mixId) {
        await publish({ variables: { mixId, sessionId } });
        resetUploadState();
      } else if (sessionId && kind === 'subscription') {
        const answer = await confirmCheckout({ variables: { sessionId } });
        if (answer.data?.confirmCheckoutSession.status !== 'PAID') throw new Error('The payment has not gone through yet.');
      } else {
        throw new Error('There is no payment to confirm here.');
      }
      setConfirmation({ state: 'done' });
    } catch (error) {
      setConfirmation({ state: 'failed', message: serverMessage(error, error instanceof Error ? error.message : 'Please try again.') });
    }
  }, [confirmCheckout, kind, mixId, publish, sessionId]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);
  return { confirmation, retry: () => void run() };
}

function CheckoutSuccess({ kind }: { kind: 'purchase' | 'subscription' }) {
  const { confirmation, retry } = useCheckoutConfirmation(kind);
  if (confirmation.state === 'working') {
    return (
      <AppShell label="Confirming your payment" columns={1}>
        <Spinner label="Confirming your payment" />
      </AppShell>
    );
  }
  if (confirmation.state === 'failed') {
    return (
      <AppShell label="Payment not confirmed" columns={1}>
        <div className={shared.page}>
          <section className={shared.section} role="alert">
            <h1 className={shared.title}>Payment not confirmed</h1>
            <p className={shared.text}>{confirmation.message}</p>
            <div className={shared.actions}>
              <button type="button" className={buttons.primary} onClick={retry}>
                Try again
              </button>
              <Link to="/upload/payment" className={buttons.secondary}>
                Back to payment
              </Link>
            </div>
          </section>
        </div>
      </AppShell>
    );
  }
  return <ResultFrame title={resultTexts.success} text={kind === 'purchase' ? resultTexts.uploaded : resultTexts.subscribed} />;
}

export const PurchaseSuccessPage = () => <CheckoutSuccess kind="purchase" />;
export const SubscriptionSuccessPage = () => <CheckoutSuccess kind="subscription" />;

export const CanceledPurchasePage = () => <ResultFrame title={resultTexts.canceled} text={resultTexts.considerSubscribing} />;
export const CanceledSubscriptionPage = CanceledPurchasePage;
