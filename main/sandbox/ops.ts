// The sandbox slice of the handler table: the Sandbox screen driving the provider behind a profile.
import type { sandboxOps } from '../../common/contract/sandbox';
import type { Ops } from '../ops';
import type { SandboxControl } from './control';

export function sandboxOpsOf(d: {
  control(profileId: string): SandboxControl;
  demoAccount(): Promise<{ apiId: string; apiKey: string } | null>;
}): Ops<typeof sandboxOps> {
  const { control } = d;
  return {
    'sandbox.state': async (input) => control(input?.profileId ?? 'sandbox').view(),
    'sandbox.demoAccount': async () => d.demoAccount(),
    'sandbox.registerTemplates': async ({ profileId, templateIds, approve }) => control(profileId).register(templateIds, approve),
    'sandbox.approveTemplate': async ({ profileId, templateId }) => control(profileId).approve(templateId),
    'sandbox.setBalance': async ({ profileId, ...balance }) => control(profileId).setBalance(balance),
    'sandbox.setSettings': async ({ profileId, ...settings }) => control(profileId).setSettings(settings),
    'sandbox.setFault': async ({ profileId, fault }) => control(profileId).setFault(fault),
    'sandbox.clearFaults': async (input) => control(input?.profileId ?? 'sandbox').clearFaults(),
    'sandbox.requests': async (input) => control(input?.profileId ?? 'sandbox').requests(input?.limit ?? 100),
  };
}
