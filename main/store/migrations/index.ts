import type { Migration } from './types';
import { migration0001 } from './0001-messages-and-exchanges';
import { migration0002 } from './0002-templates';
import { migration0003 } from './0003-profiles';
import { migration0004 } from './0004-call-attempts-and-resends';

export type { Migration } from './types';

/** Every migration, in order. Append only: never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004];
