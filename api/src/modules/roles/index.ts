// What the other modules may use of roles; the direction is checked by api/.dependency-cruiser.mjs.
export { type Role, rolePolicy, type StaffRole } from './role.policy.js';
export { RolesService } from './roles.service.js';
