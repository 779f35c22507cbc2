import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { multipartParts } from '../http/multipart.js';
import { viewerOf } from '../http/viewer.js';
import type { ProfileChanges } from '../modules/users/user.inputs.js';
import type { Services } from '../services.js';
import { InvalidInputError, PayloadTooLargeError } from '../shared/errors.js';
import { PROFILE_IMAGE_RULE } from '../shared/rules.js';
import { requireViewer } from '../shared/viewer.js';
import { libraryIdsWire, loggedInUserWire, memberSummaryWire, userWire } from './presenters.js';
import { bodyOf } from './request.js';

const PROFILE_FIELDS = { display_name: 'displayName', user_type: 'userType', bio: 'bio' } as const;

async function readProfileForm(request: FastifyRequest): Promise<ProfileChanges> {
  if (!request.isMultipart()) {
    const body = bodyOf(request);
    const changes: ProfileChanges = {};
    for (const [wire, name] of Object.entries(PROFILE_FIELDS)) if (typeof body[wire] === 'string') changes[name] = body[wire] as string;
    return changes;
  }
  const changes: ProfileChanges = {};
  // The parser refuses a file only past fileSize bytes: the rule's own comparison (isWithinSize).
  for await (const part of multipartParts(request, { fileSize: PROFILE_IMAGE_RULE.maxBytes, files: 1 })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'profile_image') {
        part.file.resume();
        throw new InvalidInputError(`Unexpected file field ${part.fieldname}`);
      }
      changes.image = await readImage(part);
    } else if (part.fieldname in PROFILE_FIELDS) {
      changes[PROFILE_FIELDS[part.fieldname as keyof typeof PROFILE_FIELDS]] = String(part.value);
    }
  }
  return changes;
}

async function readImage(part: MultipartFile): Promise<Buffer | undefined> {
  try {
    const buffer = await part.toBuffer();
    return buffer.length > 0 ? buffer : undefined;
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(PROFILE_IMAGE_RULE.tooLarge);
    throw error;
  }
}

/** User rows: the sign-up steps, profiles and member search (docs/profiles.md#calls). */
export function userRoutes(services: Services) {
  const { users } = services;
  return async (app: FastifyInstance) => {
    app.get('/user/logged-in-user', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const [user, library, following] = await Promise.all([
        users.get(viewer.id),
        services.library.ids(viewer.id),
        services.follows.followingOf(viewer.id),
      ]);
      return {
        ...loggedInUserWire(services, user),
        ...libraryIdsWire(library),
        following: following.map((member) => ({ user: userWire(services, member) })),
      };
    });

    app.get<{ Params: { name: string } }>('/user/by-user-name/:name', async (request) => {
      const viewer = await viewerOf(services, request);
      const view = await users.profile(request.params.name, viewer?.id ?? null);
      return userWire(services, view.user, view);
    });

    app.patch('/user/add-username', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const user = await users.setUserName(viewer.id, bodyOf(request).user_name);
      return { message: 'Username saved', user_name: user.userName };
    });

    app.patch('/user/update-location', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return loggedInUserWire(services, await users.setLocation(viewer.id, bodyOf(request).location));
    });

    app.patch('/user/add-user-type', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return loggedInUserWire(services, await users.setUserType(viewer.id, bodyOf(request).user_type));
    });

    app.patch('/user/set-user-conduct', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return loggedInUserWire(services, await users.agreeToConduct(viewer.id, bodyOf(request).is_agreed_to_conduct));
    });

    app.patch('/user/opt-in', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const body = bodyOf(request);
      const target = typeof body.userId === 'string' ? body.userId : undefined;
      const user = await users.setOptIn(viewer.id, target, body.has_opted_in);
      return { has_opted_in: user.hasOptedIn };
    });

    app.post('/user/add-random-mix', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const user = await services.library.assignRandomMix(viewer.id);
      return { current_mix: user.currentMix?.id ?? null, current_mix_pos: user.currentMixPos };
    });

    app.patch('/user/update-user', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const user = await users.updateProfile(viewer.id, await readProfileForm(request));
      return { data: loggedInUserWire(services, user) };
    });

    app.post('/user/search', async (request) => {
      requireViewer(await viewerOf(services, request));
      return (await users.search(bodyOf(request).searchString)).map(memberSummaryWire);
    });
  };
}
