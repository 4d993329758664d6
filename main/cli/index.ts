// The `callout` command. Plain Node: no Electron here.
import { runCli } from './program';
import { readSecretFromProcess } from './secret-input';

void runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  isTTY: Boolean(process.stdout.isTTY),
  readSecret: readSecretFromProcess,
}).then((code) => {
  process.exitCode = code;
});
