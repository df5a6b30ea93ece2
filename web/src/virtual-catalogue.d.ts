// The catalogue parts web/build/catalogue-parts.ts serves.
declare module 'virtual:catalogue/*' {
  const catalogue: Record<string, unknown>;
  export default catalogue;
}
