import { useQuery } from '@apollo/client/react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { UploadDraftDocument } from '../../gql/graphql';
import shared from '../../upload/Upload.module.css';
import { paymentMarked, readMixId, resetUploadState } from '../../upload/upload-state';

/** SPEC §2: the texts of the payment result pages. */
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
 * /upload/payment/success-code: the code was applied at step 4 (the server published the mix then). The page asks the
 * server whether the stored mix is published, and only then says so and resets the upload.
 */
export function CodeSuccessPage() {
  const mixId = readMixId();
  const { data, loading } = useQuery(UploadDraftDocument, { variables: { id: mixId ?? '' }, skip: !mixId, fetchPolicy: 'network-only' });
  const published = data?.mix?.status === 'PUBLISHED';
  useEffect(() => {
    if (published && paymentMarked('code')) resetUploadState();
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

export const CanceledPurchasePage = () => <ResultFrame title={resultTexts.canceled} text={resultTexts.considerSubscribing} />;
export const CanceledSubscriptionPage = CanceledPurchasePage;
