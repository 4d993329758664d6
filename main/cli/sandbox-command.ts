import { startSandbox } from '../sandbox';
import type { CliIo } from './io';

export interface SandboxCommandOptions {
  port?: number;
  timeScale: number;
  signature: 'off' | 'spec' | 'apisix' | 'any';
}

/** `callout sandbox`: runs the sandbox provider in the foreground until SIGINT/SIGTERM. */
export async function runSandboxCommand(opts: SandboxCommandOptions, io: CliIo, json: boolean, until?: Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ port: opts.port ?? 0, timeScale: opts.timeScale, signature: opts.signature });
  const { apiId, apiKey } = sandbox.demo;
  const templates = sandbox.templates(apiId);
  if (json) {
    io.stdout(`${JSON.stringify({ baseUrl: sandbox.baseUrl, apiId, apiKey, signature: opts.signature, templates: templates.map((t) => ({ content: t.content, approved: t.approved })) })}\n`);
  } else {
    io.stdout(
      [
        `Sandbox provider listening on ${sandbox.baseUrl}  (signature: ${opts.signature}, time scale: ${opts.timeScale})`,
        '',
        'Demo credentials (sandbox only; not a real account):',
        `  export CALLOUT_BASE_URL=${sandbox.baseUrl}`,
        `  export CALLOUT_API_ID=${apiId}`,
        `  export CALLOUT_API_KEY=${apiKey}`,
        '',
        'Approved templates:',
        ...templates.filter((t) => t.approved).map((t) => `  ${t.content}`),
        '',
        'Try:',
        `  callout send --to 13800138008 --content "${templates.find((t) => t.approved)?.content.replace(/【变量】/g, '张三') ?? ''}"`,
        'The last digit of the number picks the outcome: 0 no answer, 1 busy, 2 powered off, 3 unreachable,',
        '4 declined, 5 answered on redial, 6 vacant number, anything else answered.',
        'Fault switches: POST /__sandbox/faults, e.g. {"kind":"timeout","op":"send","times":1}. Ctrl-C stops.',
        '',
      ].join('\n'),
    );
  }
  await (until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }));
  await sandbox.close();
}
