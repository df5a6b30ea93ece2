// Import cycles fail `npm run lint` (knip finds unused code; this finds modules that need each
// other). Type-only imports count: a cycle of types still ties the modules' meanings together.
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
