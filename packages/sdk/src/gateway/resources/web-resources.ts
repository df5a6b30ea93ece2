// Resources the web app's driver screens call, for index.ts to re-export.
export * from './driver.js';
