// Reading an API Key for `callout profile set-key`: never from a flag (it would be in the shell's
// history and the process list). From standard input when it is piped (`pass show x | callout
// profile set-key NAME`), or from a prompt that does not echo on a terminal.

/** At most this much is read from a pipe. */
const MAX_SECRET_BYTES = 4096;

/** Reads the whole of standard input (a pipe or a file), without its final line break. */
function readPiped(stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_SECRET_BYTES) chunks.push(c);
    });
    stdin.on('end', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('utf8')
          .replace(/\r?\n$/, ''),
      ),
    );
    stdin.on('error', reject);
  });
}

/** Asks on the terminal without echoing what is typed; null when cancelled (Ctrl-C, Ctrl-D on an empty line). */
function promptHidden(stdin: NodeJS.ReadStream, prompt: string, write: (s: string) => void): Promise<string | null> {
  return new Promise((resolve) => {
    write(prompt);
    let value = '';
    const done = (result: string | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      write('\n');
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(value);
        if (ch === '\u0003' || (ch === '\u0004' && value === '')) return done(null);
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** The key from standard input, or a hidden prompt on a terminal. */
export function readSecretFromProcess(prompt: string): Promise<string | null> {
  const stdin = process.stdin;
  if (stdin.isTTY) return promptHidden(stdin, prompt, (s) => process.stderr.write(s));
  return readPiped(stdin);
}
