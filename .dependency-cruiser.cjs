// Import cycles and imports across web features fail `npm run lint` (knip finds unused code; this
// finds modules that need each other, and web features that reach into each other). Type-only imports count: a cycle of types still ties the modules' meanings together.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules that import each other, directly or through others: move what both need into a third.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-cross-feature',
      severity: 'error',
      comment:
        'A web feature imports only its own files and the shared layers (components, hooks, lib, sdk): move what two features need into one of those (web/README.md).',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'shared-imports-no-feature',
      severity: 'error',
      comment:
        'The shared layers of the web app (components, hooks, lib) serve every feature, so none of them may depend on one.',
      from: { path: '^web/src/(components|hooks|lib)/' },
      to: { path: '^web/src/features/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'types'],
      extensions: ['.ts', '.tsx', '.js'],
    },
    moduleSystems: ['es6'],
  },
};
