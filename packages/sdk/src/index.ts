// The public face of @blockcatch/sdk: re-exports only.
export * from './core/schemas/index.js';
