/** Where the CLI writes, and what it reads from its surroundings: injectable for tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
}

export const EXIT = {
  ok: 0,
  /** `callout verify`: the signature is not valid. */
  invalid: 1,
  /** Usage or local validation error: nothing was sent. */
  usage: 2,
  /** The provider rejected the request; its code is in the JSON. */
  rejected: 3,
  /** Transport failure or unknown outcome. */
  transport: 4,
} as const;

/** A failure the CLI reports as one line on stderr (and, with --json, as {"error": ...} on stdout). */
export class CliFailure extends Error {
  constructor(
    readonly exitCode: number,
    readonly kind: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
