/** Domain errors thrown by services; http/ and graphql/ map them to status codes and error codes in one place. */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
}

export class InvalidInputError extends DomainError {
  readonly status = 400;
  readonly code = 'BAD_USER_INPUT';
}
export class UnauthenticatedError extends DomainError {
  readonly status = 401;
  readonly code = 'UNAUTHENTICATED';
  constructor(message = 'Please sign in to continue') {
    super(message);
  }
}
export class PaymentRequiredError extends DomainError {
  readonly status = 402;
  readonly code = 'PAYMENT_REQUIRED';
}
export class ForbiddenError extends DomainError {
  readonly status = 403;
  readonly code = 'FORBIDDEN';
}
export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly code = 'NOT_FOUND';
}
/** Held back after a copyright notice or a takedown (RFC 7725): it exists, but not for this viewer (docs/trust.md). */
export class UnavailableForLegalReasonsError extends DomainError {
  readonly status = 451;
  readonly code = 'UNAVAILABLE_FOR_LEGAL_REASONS';
}
export class ConflictError extends DomainError {
  readonly status = 409;
  readonly code = 'CONFLICT';
}
export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
  readonly code = 'PAYLOAD_TOO_LARGE';
}
/** A part of the service that this server is not set up to offer (payments without a provider): no fault of the request. */
export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'SERVICE_UNAVAILABLE';
}
/** The media storage (the disk, the bucket) failed to take or give a file: no fault of the request, which may be retried. */
export class StorageUnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'SERVICE_UNAVAILABLE';
  constructor(message = 'Storage is unavailable right now; please try again', options?: ErrorOptions) {
    super(message, options);
  }
}
export class TooManyRequestsError extends DomainError {
  readonly status = 429;
  readonly code = 'TOO_MANY_REQUESTS';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
