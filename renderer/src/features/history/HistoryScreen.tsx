// The History screen: every message (filters, search, a virtualised list, a side panel with the
// timeline and exchanges), every exchange (found by status, code, profile, time and words; the raw
// inspector, code, HAR; two compared side by side), the overview chart and the runs of saved requests as tabs, and the storage settings (retention, vacuum) in a drawer.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Button, Tabs, Typography } from 'antd';
import { BarChartOutlined, DatabaseOutlined, ExperimentOutlined, SwapOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { StartupDatabaseNotice } from './DatabaseNotice';
import { ExchangesTab } from './ExchangesTab';
import { MessagesTab } from './MessagesTab';
import { OverviewTab } from './OverviewTab';
import { RunsTab } from './RunsTab';
import { StoreDrawer } from './StoreDrawer';
import { useLookups } from './use-lookups';
import type { ArchiveInfo } from '../../../../common/history-types';
import './history.css';

type TabKey = 'messages' | 'exchanges' | 'overview' | 'runs';

/** Content padding below the screen, in px. */
const BOTTOM_GAP = 24;
const MIN_HEIGHT = 480;

/**
 * The height that makes the screen end at the bottom of the window, whatever the shell shows above
 * it (banners come and go): the list then scrolls inside itself, as a virtual list must.
 */
function useFillHeight(ref: RefObject<HTMLElement | null>): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - BOTTOM_GAP)));
    };
    update();
    const observer = new ResizeObserver(update);
    if (el.parentElement) observer.observe(el.parentElement);
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', update);
    };
  }, [ref]);
  return height;
}

export function HistoryScreen() {
  const { t } = useTranslation();
  const lookups = useLookups();
  const [tab, setTab] = useState<TabKey>('messages');
  const [storeOpen, setStoreOpen] = useState(false);
  // The archive file the Exchanges tab reads (read-only), or null for the live store.
  const [archive, setArchive] = useState<ArchiveInfo | null>(null);
  const ref = useRef<HTMLElement>(null);
  const height = useFillHeight(ref);

  return (
    <section ref={ref} className="history-screen" style={height ? { height } : undefined} aria-labelledby="history-title" data-testid="history-screen">
      <div className="history-titlebar">
        <Typography.Title level={3} id="history-title" style={{ margin: 0 }}>
          {t('history.title')}
        </Typography.Title>
        <Typography.Text type="secondary" className="history-intro">
          {t('history.intro')}
        </Typography.Text>
        <span style={{ flex: 1 }} />
        <Button icon={<DatabaseOutlined />} onClick={() => setStoreOpen(true)} data-testid="open-store">
          {t('history.store.open')}
        </Button>
      </div>
      <StartupDatabaseNotice />
      <Tabs
        className="history-tabs"
        activeKey={tab}
        onChange={(key) => setTab(key as TabKey)}
        items={[
          {
            key: 'messages',
            icon: <UnorderedListOutlined />,
            label: t('history.tabs.messages'),
            children: <MessagesTab lookups={lookups} active={tab === 'messages'} />,
          },
          {
            key: 'exchanges',
            icon: <SwapOutlined />,
            label: t('history.tabs.exchanges'),
            children: <ExchangesTab lookups={lookups} active={tab === 'exchanges'} archive={archive} onArchive={setArchive} />,
          },
          { key: 'overview', icon: <BarChartOutlined />, label: t('history.tabs.overview'), children: <OverviewTab lookups={lookups} /> },
          { key: 'runs', icon: <ExperimentOutlined />, label: t('history.tabs.runs'), children: <RunsTab lookups={lookups} /> },
        ]}
      />
      <StoreDrawer
        open={storeOpen}
        onClose={() => setStoreOpen(false)}
        onOpenArchive={(a) => {
          setArchive(a);
          setTab('exchanges');
          setStoreOpen(false);
        }}
      />
    </section>
  );
}
