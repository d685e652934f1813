/** Tests and benches narrow with the same `must` as the code (shared/must.ts). */
export { must } from '#shared/must';
