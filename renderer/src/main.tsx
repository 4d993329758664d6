import './app/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { startI18n } from './i18n';
import { App } from './app/App';
import { calloutApi } from './app/api';
import { connectBrowserTransport } from './app/browser-transport';
import { followMain } from './app/live-updates';
import { queryClient } from './app/query';
import './app/app.css';

startI18n();

// In a browser (`callout ui`) there is no preload: window.callout is built over the console's WebSocket.
if (!calloutApi()) connectBrowserTransport();

// Main's push events update the data on screen, for the whole life of the window.
const api = calloutApi();
if (api) followMain(api, queryClient);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}
