// The getting-started guide's card: its steps (the Sandbox, a real provider, templates, sending),
// back and next, skip. Loaded when the guide is shown (Guide.tsx).
import { useEffect, useRef } from 'react';
import { Button, Card, Flex, Steps, Typography, theme as antTheme } from 'antd';
import { ArrowLeftOutlined, ArrowRightOutlined, CloseOutlined, DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { useProfiles } from '../profiles/use-profiles';
import { useTemplates } from '../templates/use-templates';
import { dismissGuide, GUIDE_STEPS, openGuide, setGuideStep, type GuideStep } from './guide-store';
import { ProviderStep, SandboxStep, SendStep, TemplatesStep } from './GuideSteps';
import { guideStepStatus } from './step-status';

export function GuideCard({ step, focusRequest, compact }: { step: number; focusRequest: number; compact: boolean }) {
  const { t } = useTranslation();
  const { token } = antTheme.useToken();
  const profiles = useProfiles();
  const { templates } = useTemplates();
  const section = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // Asked for from the header: bring the guide into view and put the focus on its heading.
  useEffect(() => {
    if (!focusRequest) return;
    section.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    heading.current?.focus({ preventScroll: true });
  }, [focusRequest]);

  const key: GuideStep = GUIDE_STEPS[step] ?? 'sandbox';
  const done: Record<GuideStep, boolean> = {
    sandbox: false,
    provider: (profiles.profiles ?? []).some((p) => !p.builtin && p.hasKey),
    templates: (templates ?? []).length > 0,
    send: false,
  };
  const finish = () => dismissGuide();

  if (compact) {
    // One line: where the guide stands, to open it again or skip it; the screen below comes first.
    return (
      <section ref={section} aria-labelledby="onboarding-title" data-testid="onboarding" data-step={key} data-compact="true" style={{ marginBottom: 12 }}>
        <Card
          size="small"
          className="onboarding-card onboarding-compact"
          style={{ borderColor: token.colorPrimaryBorder }}
          styles={{ body: { padding: '6px 12px' } }}
        >
          <Flex justify="space-between" align="center" gap={12} wrap>
            <Typography.Text ellipsis style={{ minWidth: 0, flex: '1 1 240px' }}>
              <Typography.Text strong id="onboarding-title">
                {t('onboarding.title')}
              </Typography.Text>
              <Typography.Text type="secondary">
                {' · '}
                {t('onboarding.progress', { step: step + 1, total: GUIDE_STEPS.length })}
                {' · '}
                {t(`onboarding.steps.${key}`)}
              </Typography.Text>
            </Typography.Text>
            <Flex gap={4}>
              <Button size="small" type="link" icon={<DownOutlined aria-hidden />} onClick={openGuide} data-testid="onboarding-expand">
                {t('onboarding.expand')}
              </Button>
              <Button size="small" type="text" icon={<CloseOutlined aria-hidden />} onClick={finish} data-testid="onboarding-skip">
                {t('onboarding.skip')}
              </Button>
            </Flex>
          </Flex>
        </Card>
      </section>
    );
  }

  return (
    <section ref={section} aria-labelledby="onboarding-title" data-testid="onboarding" data-step={key} style={{ marginBottom: 16 }}>
      <Card className="onboarding-card" style={{ borderColor: token.colorPrimaryBorder }} styles={{ body: { padding: '16px 20px' } }}>
        <Flex justify="space-between" align="flex-start" gap={16} style={{ marginBottom: 12 }}>
          <div style={{ minWidth: 0 }}>
            <Typography.Title level={4} id="onboarding-title" ref={heading} tabIndex={-1} className="onboarding-title" style={{ margin: 0 }}>
              {t('onboarding.title')}
            </Typography.Title>
            <Typography.Text type="secondary">{t('onboarding.subtitle')}</Typography.Text>
          </div>
          <Button type="text" icon={<CloseOutlined aria-hidden />} onClick={finish} data-testid="onboarding-skip">
            {t('onboarding.skip')}
          </Button>
        </Flex>

        <Steps
          size="small"
          current={step}
          onChange={setGuideStep}
          items={GUIDE_STEPS.map((s, i) => {
            // A step passed over is shown as skipped, never ticked as done.
            const status = guideStepStatus(i, step, done[s], s === 'sandbox');
            return {
              title: t(`onboarding.steps.${s}`),
              status: status === 'current' ? ('process' as const) : status === 'done' ? ('finish' as const) : ('wait' as const),
              ...(status === 'skipped' ? { content: t('onboarding.skipped') } : {}),
              'data-status': status,
            };
          })}
        />

        <div className="onboarding-body" aria-live="polite">
          {key === 'sandbox' ? <SandboxStep profiles={profiles} /> : null}
          {key === 'provider' ? <ProviderStep profiles={profiles} /> : null}
          {key === 'templates' ? <TemplatesStep onOpenLibrary={() => navigate('templates')} /> : null}
          {key === 'send' ? (
            <SendStep
              onSend={() => {
                finish();
                navigate('send');
              }}
              onFinish={finish}
            />
          ) : null}
        </div>

        <Flex justify="space-between" align="center" gap={8} style={{ marginTop: 12 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('onboarding.progress', { step: step + 1, total: GUIDE_STEPS.length })}
          </Typography.Text>
          <Flex gap={8}>
            {step > 0 ? (
              <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => setGuideStep(step - 1)} data-testid="onboarding-back">
                {t('onboarding.back')}
              </Button>
            ) : null}
            {step < GUIDE_STEPS.length - 1 ? (
              <Button type={key === 'sandbox' ? 'primary' : 'default'} onClick={() => setGuideStep(step + 1)} data-testid="onboarding-next">
                {t('onboarding.next')} <ArrowRightOutlined aria-hidden />
              </Button>
            ) : null}
          </Flex>
        </Flex>
      </Card>
    </section>
  );
}
