import type { Page } from 'playwright-core';

/**
 * Resolves once the page's GraphQL socket sends the subscribe message of an operation selecting `field` (graphql-ws
 * answers nothing when a subscription starts, so this is the last sign of it a journey can see). Call it before the
 * page opens its socket.
 */
export function subscribeSent(page: Page, field: string): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framesent', ({ payload }) => {
        if (typeof payload !== 'string') return;
        const message = JSON.parse(payload) as { type?: string; payload?: { query?: string } };
        if (message.type === 'subscribe' && new RegExp(`\\b${field}\\b`).test(message.payload?.query ?? '')) resolve();
      });
    });
  });
}

/** The variables of every `operationName` request the page has had answered (the server has done it), as they come. */
export function answeredOperations(page: Page, operationName: string): Record<string, unknown>[] {
  const answered: Record<string, unknown>[] = [];
  page.on('requestfinished', (request) => {
    if (request.method() !== 'POST' || !new URL(request.url()).pathname.endsWith('/graphql')) return;
    const body = request.postDataJSON() as { operationName?: string; variables?: Record<string, unknown> } | null;
    if (body?.operationName === operationName) answered.push(body.variables ?? {});
  });
  return answered;
}
