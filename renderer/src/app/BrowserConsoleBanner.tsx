// What is different when the console runs in a browser (`callout ui`) rather than the desktop app:
// notifications need the browser's permission, the OS-wide shortcut and copy-with-key are desktop
// only. And, above everything, when the connection to `callout ui` is lost.
import { Alert, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import { useNoticePermission } from './browser-notifications';
import { consoleShell, useConnectionState } from './browser-transport';
import { currentAddress, useScreen } from './navigation';
import { IS_MAC, SHORTCUT_KEYS } from '../features/dial/shortcut';

export const CONSOLE_BANNER_DISMISSED_KEY = 'callout.console.banner.dismissed';

function dismissedBefore(): boolean {
  try {
    return window.localStorage.getItem(CONSOLE_BANNER_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function BrowserConsoleBanner() {
  const { t } = useTranslation();
  const connection = useConnectionState();
  const [permission, askPermission] = useNoticePermission();
  const [dismissed, setDismissed] = useState(dismissedBefore);
  // In full on the screen it first showed on; on any other screen one line, so that screen's content comes first.
  const address = useScreen();
  const [firstAddress] = useState(currentAddress);
  const [expanded, setExpanded] = useState(false);
  const compact = address !== firstAddress && !expanded;
  if (consoleShell().kind !== 'browser') return null;

  if (connection === 'lost') {
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        data-testid="console-lost"
        title={t('console.lostTitle')}
        description={t('console.lostBody')}
        action={
          <Button size="small" onClick={() => window.location.reload()}>
            {t('console.reload')}
          </Button>
        }
        style={{ marginBottom: 16 }}
      />
    );
  }
  if (dismissed) return null;

  const globalKeys = IS_MAC ? '⌘⇧K' : 'Ctrl+Shift+K';
  return (
    <Alert
      type="info"
      showIcon
      closable
      role="status"
      data-testid="console-banner"
      data-compact={compact}
      onClose={() => {
        try {
          window.localStorage.setItem(CONSOLE_BANNER_DISMISSED_KEY, '1');
        } catch {
          // Storage may be unavailable: it is hidden for this page only.
        }
        setDismissed(true);
      }}
      title={t('console.title')}
      action={
        compact ? (
          <Button size="small" type="link" onClick={() => setExpanded(true)} data-testid="console-banner-details">
            {t('console.details')}
          </Button>
        ) : undefined
      }
      description={
        compact ? undefined : (
          <>
            <div>{t('console.body')}</div>
            <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
              <li data-testid="console-notifications">
                <Space size={8} wrap>
                  <span>{t(`console.notifications.${permission}`)}</span>
                  {permission === 'default' && (
                    <Button size="small" type="primary" onClick={() => void askPermission()} data-testid="allow-notifications">
                      {t('console.notifications.allow')}
                    </Button>
                  )}
                </Space>
              </li>
              <li>{t('console.shortcut', { keys: globalKeys, pageKeys: SHORTCUT_KEYS.join(IS_MAC ? '' : '+') })}</li>
              <li>{t('console.keyCopy')}</li>
            </ul>
          </>
        )
      }
      style={{ marginBottom: compact ? 12 : 16, ...(compact ? { paddingBlock: 4 } : {}) }}
    />
  );
}
