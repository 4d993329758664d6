import { openDatabase, type Database, type OpenDatabaseOptions } from './database';
import { ExchangeRepository } from './exchange-repository';
import { MessageRepository } from './message-repository';
import { databasePath, dataDirectory } from './paths';
import { TemplateRepository } from './template-repository';
import { ProfileRepository } from './profile-repository';

export interface Store {
  dir: string;
  db: Database;
  messages: MessageRepository;
  exchanges: ExchangeRepository;
  templates: TemplateRepository;
  profiles: ProfileRepository;
  close(): void;
}

/** Opens (creating and migrating as needed) the store in a data directory. */
export function openStore(dir: string = dataDirectory(), options: OpenDatabaseOptions = {}): Store {
  const db = openDatabase(databasePath(dir), options);
  return {
    dir,
    db,
    messages: new MessageRepository(db),
    exchanges: new ExchangeRepository(db),
    templates: new TemplateRepository(db),
    profiles: new ProfileRepository(db),
    close: () => db.close(),
  };
}
