import './app/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startI18n } from './i18n';
import { App } from './app/App';
import './app/app.css';

startI18n();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
