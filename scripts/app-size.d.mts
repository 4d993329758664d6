// Types for scripts/app-size.mjs, so TypeScript tests can import it.
export const ROOT: string;
export function appExclusions(root?: string): Promise<(path: string) => boolean>;
export function bytesUnder(dir: string, excluded?: (path: string) => boolean, root?: string): number;
export function packedModules(root?: string): Promise<{ name: string; version: string; dir: string; bytes: number }[]>;
