// The app shell: antd's ConfigProvider (locale and theme follow the language), a header with the
// app name and the language switch, the left navigation built from SCREENS, and the current screen
// (each screen is its own chunk, loaded when it is first shown).
import { Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { ConfigProvider, Layout, Segmented, theme as antTheme } from 'antd';
import { GlobalOutlined, PhoneFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { antdLocale, currentLanguage, LANGUAGE_NAMES, LANGUAGES, setLanguage, type Feature, type Language } from '../i18n';
import { useLocaleForMain } from './query';
import { useScreen } from './navigation';
import { SecretStoreBanner } from './SecretStoreBanner';
import { BrowserConsoleBanner } from './BrowserConsoleBanner';
import { StorageBanner } from './StorageBanner';
import { GuideButton, GuidePanel } from '../features/onboarding/Guide';
import { screenFor } from './screens';
import { NavMenu } from './NavMenu';
import { FeedbackHost } from './feedback';
import { Text } from './Text';
import { Skeleton } from './Skeleton';

export const APP_NAME = 'Callout';

/** Feature texts the shell itself shows on every screen (the guide's button), loaded with the first screen. */
export const SHELL_TEXTS: readonly Feature[] = ['onboarding'];

// Latin text in a Latin face for English (so “quotes” and punctuation are not full-width);
// a CJK face first for Chinese. Each list ends in fonts found on Windows, macOS and Linux.
const LATIN_FONTS = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans'";
const CJK_FONTS = "'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei'";
const FONTS: Record<Language, string> = {
  en: `${LATIN_FONTS}, ${CJK_FONTS}, sans-serif`,
  'zh-CN': `-apple-system, BlinkMacSystemFont, 'Segoe UI', ${CJK_FONTS}, 'Helvetica Neue', Arial, sans-serif`,
};

function themeFor(lang: Language) {
  return { token: { colorPrimary: '#1677ff', fontFamily: FONTS[lang] } };
}

function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  return (
    <span className="callout-language">
      <GlobalOutlined aria-hidden style={{ color: 'rgba(0,0,0,0.45)' }} />
      <Segmented<Language>
        aria-label={t('app.language')}
        value={lang}
        onChange={(value) => void setLanguage(value)}
        options={LANGUAGES.map((l) => ({ value: l, label: <span lang={l}>{LANGUAGE_NAMES[l]}</span> }))}
      />
    </span>
  );
}

function Shell() {
  const { t, i18n } = useTranslation();
  const { token } = antTheme.useToken();
  const address = useScreen();
  const current = screenFor(address);
  const screen = current.key;
  const lang = currentLanguage(i18n.language);

  // Main speaks on its own (desktop notifications when a call ends): in the UI's language.
  useLocaleForMain(lang);

  useEffect(() => {
    document.title = `${t(`nav.${screen}`)} · ${APP_NAME}`;
  }, [t, screen]);

  // Another screen chosen: it starts at its top (not where the last one was scrolled to).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [screen]);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 16,
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          paddingInline: 24,
          height: 56,
          lineHeight: '56px',
        }}
      >
        <span className="callout-brand">
          <PhoneFilled aria-hidden style={{ color: token.colorPrimary, fontSize: 20 }} />
          <Text strong style={{ fontSize: 18 }}>
            {APP_NAME}
          </Text>
          <Text type="secondary">{t('app.tagline')}</Text>
        </span>
        <span style={{ flex: 1 }} />
        <GuideButton />
        <LanguageSwitch />
      </Layout.Header>
      <Layout>
        <Layout.Sider width={200} theme="light" style={{ borderRight: `1px solid ${token.colorBorderSecondary}` }}>
          <nav aria-label={t('app.navigation')}>
            <NavMenu current={screen} />
          </nav>
        </Layout.Sider>
        <Layout.Content style={{ padding: 24, minWidth: 0 }}>
          <main>
            <BrowserConsoleBanner />
            <StorageBanner />
            <SecretStoreBanner />
            <GuidePanel />
            <Suspense fallback={<Skeleton />}>
              <current.Component />
            </Suspense>
          </main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

/**
 * The text style antd's App gave the console (its root element): for our own elements, which
 * antd's components do not style. Toasts and confirmations come from FeedbackHost (feedback.tsx).
 */
function Root({ children }: { children: ReactNode }) {
  const { token } = antTheme.useToken();
  return <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>{children}</div>;
}

export function App() {
  const { i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const theme = useMemo(() => themeFor(lang), [lang]);
  return (
    <ConfigProvider locale={antdLocale(lang)} theme={theme}>
      <Root>
        <FeedbackHost />
        <Shell />
      </Root>
    </ConfigProvider>
  );
}
