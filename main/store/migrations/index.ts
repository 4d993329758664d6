import type { Migration } from './types';
import { migration0001 } from './0001-messages-and-exchanges';
import { migration0002 } from './0002-templates';
import { migration0003 } from './0003-profiles';
import { migration0004 } from './0004-call-attempts-and-resends';
import { migration0005 } from './0005-history-search-and-retention';
import { migration0006 } from './0006-bulk-and-contacts';
import { migration0007 } from './0007-coded-reasons';
import { migration0008 } from './0008-key-origin';
import { migration0009 } from './0009-profile-dialects-and-receipts';
import { migration0010 } from './0010-batch-sheets-and-sends';
import { migration0011 } from './0011-saved-requests';
import { migration0012 } from './0012-exchange-search';
import { migration0013 } from './0013-captured-exchanges';
import { migration0014 } from './0014-lend-lines';
import { migration0015 } from './0015-lend-refusal';
import { migration0016 } from './0016-exchange-messages';
import { migration0017 } from './0017-paging';
import { migration0018 } from './0018-resolution-calls';
import { migration0019 } from './0019-dial-claims';
import { migration0020 } from './0020-packed-exchanges';
import { migration0021 } from './0021-call-words';
import { migration0022 } from './0022-exchange-hours';
import { migration0023 } from './0023-message-time-blocks';
import { migration0024 } from './0024-sparse-exchange-indexes';
import { migration0025 } from './0025-profile-keys';
import { migration0026 } from './0026-poll-bases';
import { migration0027 } from './0027-word-stops';
import { migration0028 } from './0028-lean-exchange-indexes';
import { migration0029 } from './0029-message-profile-keys';
import { migration0030 } from './0030-lean-message-search';
import { migration0031 } from './0031-implied-created-events';

export type { Migration, MigrationFill, MigrationProgress } from './types';

/** Every migration, in order. Append only: never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
  migration0020,
  migration0021,
  migration0022,
  migration0023,
  migration0024,
  migration0025,
  migration0026,
  migration0027,
  migration0028,
  migration0029,
  migration0030,
  migration0031,
];
