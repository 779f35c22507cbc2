import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import { authMessages } from '../modules/auth/auth.errors.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { bodyOf } from './request.js';

/** Auth rows: sign-up, sign-in, password check/change, reset by email; and signing out (issue 26) (docs/accounts.md#calls). */
export function authRoutes(services: Services) {
  return async (app: FastifyInstance) => {
    app.post('/user/create-user', async (request, reply) => {
      const body = bodyOf(request);
      const { token } = await services.auth.signUp(
        { email: body.email, password: body.password, hasOptedIn: body.has_opted_in },
        { ip: request.ip },
      );
      return reply.status(201).send({ token });
    });

    app.post('/auth', async (request) => {
      const body = bodyOf(request);
      const { token } = await services.auth.signIn({ email: body.email, password: body.password }, { ip: request.ip });
      return { token };
    });

    app.post('/user/reset-password', async (request) => {
      return { message: await services.auth.requestPasswordReset(bodyOf(request).email, { ip: request.ip }) };
    });

    // The create-password screen: the documented email + newPassword, plus the token from the reset link (required).
    app.post('/auth/update-password', async (request) => {
      const body = bodyOf(request);
      return {
        message: await services.auth.resetPassword(
          { email: body.email, token: body.token, newPassword: body.newPassword },
          { ip: request.ip },
        ),
      };
    });

    app.post('/user/check-password', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      await services.auth.checkPassword(viewer.id, bodyOf(request).password, { ip: request.ip });
      return { message: authMessages.passwordCorrect };
    });

    app.put('/user/update-password', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      await services.auth.changePassword(
        viewer,
        { oldPassword: body.password ?? body.oldPassword, newPassword: body.newPassword },
        { ip: request.ip },
      );
      return { message: authMessages.passwordUpdated };
    });

    app.post('/auth/logout', async (request) => {
      await services.auth.signOut(requireViewer(await viewerOf(services, request)));
      return { message: authMessages.signedOut };
    });

    app.post('/auth/logout-everywhere', async (request) => {
      const ended = await services.auth.signOutEverywhere(requireViewer(await viewerOf(services, request)));
      return { message: authMessages.signedOutEverywhere, sessions_ended: ended };
    });
  };
}
