import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { loadTexts, startI18n } from './i18n';
import { App, SHELL_TEXTS } from './app/App';
import { calloutApi } from './app/api';
import { connectBrowserTransport } from './app/browser-transport';
import { followMain } from './app/live-updates';
import { afterSettling } from './app/idle';
import { currentAddress } from './app/navigation';
import { queryClient } from './app/query';
import { bulkLiveUpdates } from './features/bulk/live';
import { dialLiveUpdates, prefetchDialData } from './features/dial/use-dial-data';
import { historyLiveUpdates } from './features/history/history-push';
import { oncallLiveUpdates } from './features/oncall/live';
import { SCREENS, screenFor } from './app/screens';
import { preloadFeedback } from './app/feedback';
import './app/app.css';

// In a browser (`callout ui`) there is no preload: window.callout is built over the console's WebSocket.
if (!calloutApi()) connectBrowserTransport();

// Main's push events update the data on screen, for the whole life of the window: the shared data,
// and each feature's own (the features that follow main say so here).
const api = calloutApi();
if (api) followMain(api, queryClient, [historyLiveUpdates, dialLiveUpdates, bulkLiveUpdates, oncallLiveUpdates]);

// The first screen needs its language's texts (the shell's and its own) and its own chunk: all are
// fetched at once, then the console renders (with nothing to wait for, it appears complete).
const root = document.getElementById('root');
void Promise.all([
  startI18n(),
  loadTexts(SHELL_TEXTS),
  screenFor(currentAddress())
    .preload()
    .catch(() => undefined),
]).then(() => {
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
  // Quick dial (Ctrl+K from any screen) must answer at once: its screen and the palette's data are
  // fetched once the first screen has its data and has been shown (when the browser is idle), with
  // the toasts' and confirmations' code (a first toast or confirmation is then shown at once), and
  // the History screen's code.
  afterFirstScreen(() => {
    void SCREENS.find((s) => s.key === 'dial')
      ?.preload()
      .catch(() => undefined);
    // History is where people go next (what happened to a call): its code is ready before the click.
    void SCREENS.find((s) => s.key === 'history')
      ?.preload()
      .catch(() => undefined);
    prefetchDialData(queryClient);
    preloadFeedback();
  });
});

/**
 * Runs `work` once the first screen's queries have been fetched (they start after the first
 * render), half a second later, when the browser is idle; at the latest five seconds from now.
 */
function afterFirstScreen(work: () => void): void {
  const cache = queryClient.getQueryCache();
  let started = false;
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    off();
    clearTimeout(latest);
    afterSettling(work);
  };
  const off = cache.subscribe(() => {
    if (queryClient.isFetching() > 0) started = true;
    else if (started) go();
  });
  const latest = setTimeout(go, 5000);
}
