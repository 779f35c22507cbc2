// What the other modules may use of recognition; the direction is checked by api/.dependency-cruiser.mjs.
export type { RecognitionJobs } from './recognition-jobs.js';
