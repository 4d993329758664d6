// The `callout` command. Plain Node: no Electron here.
import { createInterface } from 'node:readline';
import { runCli } from './program';

void runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  isTTY: Boolean(process.stdout.isTTY),
  onLine: process.stdin.isTTY
    ? (listener) => {
        const lines = createInterface({ input: process.stdin });
        lines.on('line', listener);
        return () => lines.close();
      }
    : undefined,
}).then((code) => {
  process.exitCode = code;
});
