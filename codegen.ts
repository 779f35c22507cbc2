import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed GraphQL documents for the web client. The schema is the one the API emits (`npm run schema -w api`);
 * the documents are the `.graphql` files beside the screens that use them. Output: web/src/gql/ (never edit by hand).
 * Use the generated `*Document` constants with Apollo's hooks: `useMutation(SignInDocument)` is fully typed.
 */
const config: CodegenConfig = {
  overwrite: true,
  schema: './schema/schema.graphql',
  documents: ['web/src/**/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'web/src/gql/': {
      preset: 'client',
      presetConfig: {
        // Apollo Client 4 has its own data masking; keep fragments as plain types.
        fragmentMasking: false,
      },
      config: {
        useTypeImports: true,
        // String unions instead of TypeScript enums: no runtime code, and they work with isolatedModules.
        enumsAsTypes: true,
        scalars: { DateTimeISO: 'string', ID: 'string' },
        skipTypename: false,
        dedupeFragments: true,
      },
    },
  },
};

export default config;
