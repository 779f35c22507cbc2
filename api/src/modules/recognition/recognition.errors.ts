import { ForbiddenError } from '../../shared/errors.js';

export const RecognitionErrors = {
  notYours: () => new ForbiddenError('Only the owner of this mix may see the tracks recognised in it'),
} as const;
