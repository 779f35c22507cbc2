// What the other modules may use of search; the direction is checked by api/.dependency-cruiser.mjs.
export { searchEntities } from './search.entities.js';
export type { SearchItem, SearchPage, SearchService, Suggestions } from './search.service.js';
