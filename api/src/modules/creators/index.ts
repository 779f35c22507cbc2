// What the other modules may use of creators; the direction is checked by api/.dependency-cruiser.mjs.
export { creatorPolicy } from './creator.policy.js';
export { CreatorsService, type HeldName, type Holder, heldRef } from './creators.service.js';
