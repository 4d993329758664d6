// The History screen's head start as the navigation starts it (head-start.ts): the request to main.
import { ask } from '../../app/query';
import { startFirstPage } from './head-start';

/** Asks main for the first page of the list History opens on (once while a head start is fresh). */
export const startHistoryFirstPage = (): void => startFirstPage((input) => ask((api) => api.history.page(input)));
