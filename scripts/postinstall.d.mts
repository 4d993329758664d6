// Types for scripts/postinstall.mjs, so TypeScript tests can import it.
export function postinstall(o?: {
  root?: string;
  env?: NodeJS.ProcessEnv;
  say?: (line: string) => void;
  progress?: { isTTY?: boolean; write(s: string): unknown } | null;
}): Promise<void>;
