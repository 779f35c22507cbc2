import { ConflictError, InvalidInputError, NotFoundError, PaymentRequiredError, ServiceUnavailableError } from '../../shared/errors.js';
import { BETA_CODE } from '../../shared/rules.js';

/** A BETA code that is not one: told apart so wrong guesses can be counted. */
export class WrongBetaCodeError extends InvalidInputError {}

/** Every error the payments domain answers with, and its words. */
export const PaymentErrors = {
  paymentRequired: () => new PaymentRequiredError('Publishing needs a payment for this mix, an active subscription or a BETA code'),
  invalidCode: () => new WrongBetaCodeError(`${BETA_CODE.invalidTitle} Please try again or email us for a BETA code`),
  sessionNotFound: () => new NotFoundError('No such checkout session'),
  sessionForAnotherMix: () => new InvalidInputError('That checkout session paid for another mix'),
  noCustomer: () => new InvalidInputError('Billing opens once you have paid for something: buy an upload or subscribe first'),
  portalNotFound: () => new NotFoundError('This billing page has expired; open billing again from Settings'),
  alreadySubscribed: () => new ConflictError('You already have an active subscription; manage it from Settings'),
  notRenewable: () => new ConflictError('This mix is hosted by your subscription: it needs no renewal while the subscription is active'),
  signatureMissing: () => new InvalidInputError('Webhook refused: this server has no STRIPE_WEBHOOK_SECRET'),
  signatureInvalid: () => new InvalidInputError('Webhook refused: the Stripe-Signature header does not match the body'),
  notConfigured: () =>
    new ServiceUnavailableError(
      'Payments are not configured on this server: publish with a BETA code, or ask the operator to set up Stripe',
    ),
  providerFailed: () => new InvalidInputError('The payment provider refused the request; please try again'),
} as const;

/** Messages that input schemas give. */
export const paymentInputMessages = {
  sessionId: 'session_id must be a checkout session id',
  period: 'period must be a month as YYYY-MM',
  code: 'code must be text',
} as const;
