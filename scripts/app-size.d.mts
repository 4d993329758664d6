// Types for scripts/app-size.mjs, so TypeScript tests can import it.
export const ROOT: string;
export function excludedFromApp(name: string): boolean;
export function bytesUnder(dir: string): number;
export function packedModules(root?: string): Promise<{ name: string; version: string; dir: string; bytes: number }[]>;
