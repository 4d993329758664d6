// The `callout` command. Plain Node: no Electron here.
import { createInterface } from 'node:readline';
import { EXIT, type CliIo } from './io';
import { reportCrash, runCli } from './program';
import { readSecretFromProcess } from './secret-input';

const argv = process.argv.slice(2);
const io: CliIo = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  stderrIsTTY: Boolean(process.stderr.isTTY),
  onLine: process.stdin.isTTY
    ? (listener) => {
        const lines = createInterface({ input: process.stdin });
        lines.on('line', listener);
        return () => lines.close();
      }
    : undefined,
  readSecret: readSecretFromProcess,
};

// Whatever escapes runCli (an error thrown from a timer or a stream) is one line and a log file,
// never Node's stack trace, and the exit status of an internal error (not 1: a negative result).
const crash = (error: unknown) => {
  reportCrash(error, argv, io);
  process.exit(EXIT.internal);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

void runCli(argv, io).then((code) => {
  process.exitCode = code;
}, crash);
