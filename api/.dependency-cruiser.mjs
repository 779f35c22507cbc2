// The direction of the API's imports, checked by test/architecture.test.ts (and `npm run depcruise -w api` for a report).
//
// Layers, lowest first; a file may import its own layer and the layers below it:
//   shared/ (and config.ts, logger.ts)  ←  db/, storage/  ←  modules/  ←  demo-world/
//   ←  the skins (graphql/, http/, rest/) and the wiring (services.ts, server.ts, cluster.ts, main.ts, start-banner.ts)
// A module's GraphQL skin (*.resolver.ts, *.types.ts, *.loaders.ts) lives beside its domain and may use graphql/ and
// services.ts; the rest of a module may not. Nothing in src/ imports test/ or bench/ (tests beside the code aside).
//
// Modules: a domain uses another only through that module's index.ts (what it offers the others), and only along an
// edge below. Two kinds of file name another module's file directly, still along the edges: an entity its foreign
// keys' entities, and a GraphQL skin another module's GraphQL object types (*.types.ts: the schema is one graph, and
// an index without them keeps the domain free of type-graphql). The edges go one way (the test checks there is no
// cycle); a module that needs something from one above it is handed it by services.ts (a callback or a port).

/** Which modules each module may use. */
export const MODULE_EDGES = {
  mail: [],
  users: [],
  tracks: [],
  auth: ['users', 'mail'],
  roles: ['users'],
  moderation: ['roles', 'users'],
  creators: ['mail', 'moderation', 'tracks', 'users'],
  follows: ['users'],
  notifications: ['follows', 'users'],
  mixes: ['tracks', 'users'],
  recognition: ['mixes', 'moderation', 'roles', 'tracks', 'users'],
  media: ['mixes', 'recognition'],
  library: ['mixes', 'tracks', 'users'],
  listens: ['mixes', 'users'],
  payments: ['auth', 'mixes', 'roles', 'tracks', 'users'],
  recommendations: ['mixes'],
  search: ['mixes', 'tracks', 'users'],
  trust: ['mail', 'mixes', 'moderation', 'roles', 'tracks', 'users'],
};

/**
 * The one edge against the direction: a member's current mix is a column of the member's table, and a mix's owner one
 * of the mix's, so the two entities name each other (MikroORM resolves both through `() =>` thunks, lazily).
 */
export const SCHEMA_BACK_EDGES = [{ from: '^src/modules/users/user\\.entity\\.ts$', to: '^src/modules/mixes/mix\\.entity\\.ts$' }];

const TEST = '\\.test\\.ts$';
const MODULE_SKIN = '^src/modules/.+\\.(resolver|types|loaders)\\.ts$';
const ENTITY = '^src/modules/.+\\.entit(y|ies)\\.ts$';
const INDEX = '^src/modules/[^/]+/index\\.ts$';
const BASE = '^src/(shared/|config\\.ts$|logger\\.ts$)';
const WIRING = '^src/(services|server|cluster|main|start-banner)\\.ts$';
const SKINS = '^src/(graphql|http|rest)/';
const either = (...patterns) => patterns.filter(Boolean).join('|');

const moduleDirection = Object.entries(MODULE_EDGES).map(([name, uses]) => ({
  name: 'module-direction',
  comment: `${name} may use ${uses.length > 0 ? uses.join(', ') : 'no other module'} (MODULE_EDGES)`,
  severity: 'error',
  from: { path: `^src/modules/${name}/`, pathNot: either(TEST, ...SCHEMA_BACK_EDGES.map((edge) => edge.from)) },
  to: { path: '^src/modules/', pathNot: `^src/modules/(${[name, ...uses].join('|')})/` },
}));

const schemaBackEdges = SCHEMA_BACK_EDGES.map((edge) => {
  const name = /^\^src\/modules\/([^/]+)\//.exec(edge.from)?.[1] ?? '';
  return {
    name: 'module-direction',
    comment: `${name} may use ${(MODULE_EDGES[name] ?? []).join(', ')}; this entity also the one SCHEMA_BACK_EDGES names`,
    severity: 'error',
    from: { path: edge.from },
    to: { path: '^src/modules/', pathNot: either(`^src/modules/(${[name, ...(MODULE_EDGES[name] ?? [])].join('|')})/`, edge.to) },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No file reaches itself through imports that run (type-only ones aside); entities may name each other (thunks).',
      severity: 'error',
      from: {},
      to: { circular: true, via: { pathNot: ENTITY }, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'shared-is-the-floor',
      comment: 'shared/, config.ts and logger.ts import nothing else of the API.',
      severity: 'error',
      from: { path: BASE },
      to: { path: '^src/', pathNot: BASE },
    },
    {
      name: 'db-and-storage-below-modules',
      comment: 'db/ and storage/ use only shared/ (db/entities.ts, the list of tables the ORM maps, names the entities).',
      severity: 'error',
      from: { path: '^src/(db|storage)/', pathNot: '^src/db/entities\\.ts$' },
      to: { path: '^src/', pathNot: either(BASE, '^src/$1/') },
    },
    {
      name: 'db-entity-list',
      comment: 'db/entities.ts names the modules’ entity files and nothing else of theirs.',
      severity: 'error',
      from: { path: '^src/db/entities\\.ts$' },
      to: { path: '^src/', pathNot: either(BASE, '^src/db/', ENTITY) },
    },
    {
      name: 'modules-below-skins',
      comment: 'A domain (its index.ts included) knows neither its skins, the wiring nor the demo world.',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: either(TEST, MODULE_SKIN) },
      to: { path: either(SKINS, WIRING, '^src/demo-world/', MODULE_SKIN) },
    },
    {
      name: 'module-skins-below-the-app',
      comment: 'A module’s GraphQL skin may use graphql/ and the Services type; not the HTTP app, REST or the demo world.',
      severity: 'error',
      from: { path: MODULE_SKIN },
      to: { path: either('^src/(http|rest|demo-world)/', '^src/graphql/schema\\.ts$', '^src/(server|cluster|main|start-banner)\\.ts$') },
    },
    {
      name: 'demo-world-above-modules',
      comment: 'The demo world calls into the modules; only its command-line entry (reset.ts) starts a server.',
      severity: 'error',
      from: { path: '^src/demo-world/', pathNot: '^src/demo-world/reset\\.ts$' },
      to: { path: either(SKINS, WIRING) },
    },
    {
      name: 'src-not-tests',
      comment: 'The API does not import its tests, their support or the benches.',
      severity: 'error',
      from: { path: '^src/', pathNot: TEST },
      to: { path: '(^|/)(test|bench)/' },
    },
    {
      name: 'through-the-index',
      comment: 'A module uses another only through its index.ts.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: either(TEST, ENTITY, MODULE_SKIN) },
      to: { path: '^src/modules/', pathNot: either('^src/modules/$1/', INDEX) },
    },
    {
      name: 'through-the-index',
      comment: 'A GraphQL skin names another module’s GraphQL object types directly, and the rest through its index.ts.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/.+\\.(resolver|types|loaders)\\.ts$', pathNot: TEST },
      to: { path: '^src/modules/', pathNot: either('^src/modules/$1/', INDEX, '^src/modules/.+\\.types\\.ts$') },
    },
    {
      name: 'through-the-index',
      comment: 'An entity names another module’s entities directly (its foreign keys), and nothing else of it.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/.+\\.entit(y|ies)\\.ts$' },
      to: { path: '^src/modules/', pathNot: either('^src/modules/$1/', ENTITY) },
    },
    ...moduleDirection,
    ...schemaBackEdges,
  ],
  options: {
    // Only the API's own files: packages are no layer, and leaving them out makes a run take seconds.
    exclude: { path: 'node_modules' },
    // Types are dependencies too: a type-only import of a module above is still a back edge.
    tsPreCompilationDeps: true,
  },
};
