// What the other modules may use of users; the direction is checked by api/.dependency-cruiser.mjs.
export { type IUser, type MemberView, User } from './user.entity.js';
export { locationInput } from './user.inputs.js';
export { activeMemberSql, type SuspensionFacts, suspendedSql, userPolicy } from './user.policy.js';
