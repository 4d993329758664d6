// The getting-started guide: a panel above the current screen (it never blocks the app) that opens
// by itself on the first start, walks through the Sandbox, a real provider, templates and sending,
// can be skipped at any step, and comes back from the "Getting started" button in the header.
// The card itself (its steps use the profiles' forms) is its own chunk, loaded when it is shown.
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Button } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { loadTexts } from '../../i18n';
import { useScreen } from '../../app/navigation';
import { checkFirstStart, compactGuide, openGuide, useGuide } from './guide-store';

const GuideCard = lazy(() => Promise.all([import('./GuideCard'), loadTexts(['onboarding', 'templates', 'sandbox'])]).then(([m]) => ({ default: m.GuideCard })));

/** The header button that opens the guide again. */
export function GuideButton() {
  const { t } = useTranslation();
  return (
    <Button type="text" icon={<QuestionCircleOutlined aria-hidden />} onClick={openGuide} data-testid="onboarding-open">
      {t('onboarding.open')}
    </Button>
  );
}

/** The guide, when it is shown; on mount it checks whether this is the first start. */
export function GuidePanel() {
  const guide = useGuide();
  useEffect(() => {
    void checkFirstStart();
  }, []);
  // Another screen chosen: the guide folds to one line, so that the screen's own content is seen first.
  const address = useScreen();
  const shown = useRef(address);
  useEffect(() => {
    if (shown.current === address) return;
    shown.current = address;
    compactGuide();
  }, [address]);
  return guide.visible ? (
    <Suspense fallback={null}>
      <GuideCard step={guide.step} focusRequest={guide.focusRequest} compact={guide.compact} />
    </Suspense>
  ) : null;
}
