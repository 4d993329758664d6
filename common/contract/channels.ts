// The names of every operation and push event, and nothing else: no zod, no types of values. The
// preload and the browser transport build window.callout from these alone. Each feature's module
// (profiles.ts, send.ts, ...) declares its operations under exactly these names: index.ts checks at
// compile time that the two agree, both ways.

export const CHANNEL_NAMES = [
  // app
  'app.info',
  'app.setLocale',
  // profiles
  'profiles.list',
  'profiles.save',
  'profiles.remove',
  'profiles.setKey',
  'profiles.deleteKey',
  'profiles.setLines',
  'profiles.setDialect',
  'profiles.setFollow',
  // dialects
  'dialects.list',
  'dialects.check',
  'dialects.reply',
  'dialects.preview',
  // templates
  'templates.list',
  'templates.save',
  'templates.import',
  'templates.remove',
  // send
  'messages.send',
  'messages.refreshStatus',
  'messages.sendAgain',
  'messages.recents',
  'messages.queryStatus',
  'messages.get',
  'balance.query',
  // history
  'history.page',
  'history.overview',
  'history.exportCsv',
  'exchanges.list',
  'exchanges.get',
  'exchanges.curl',
  'exchanges.copyCurlWithKey',
  'exchanges.exportHar',
  'console.send',
  'store.status',
  'store.setRetention',
  'store.applyRetention',
  'store.vacuum',
  // bulk
  'bulk.open',
  'bulk.cancelOpen',
  'bulk.remap',
  'bulk.issues',
  'bulk.create',
  'bulk.discard',
  'bulk.list',
  'bulk.progress',
  'bulk.start',
  'bulk.pause',
  'bulk.resume',
  'bulk.cancel',
  'bulk.items',
  'bulk.unknown',
  'bulk.requeue',
  'bulk.skip',
  'bulk.export',
  'bulk.remove',
  // dial
  'contacts.list',
  'contacts.resolve',
  'contacts.search',
  'contacts.save',
  'contacts.remove',
  'contacts.setFavourite',
  'contacts.groups',
  'contacts.saveGroup',
  'contacts.removeGroup',
  'dial.plan',
  'dial.start',
  'dial.cancel',
  'dial.active',
  'dial.settings',
  'dial.saveSettings',
  // sandbox
  'sandbox.state',
  'sandbox.registerTemplates',
  'sandbox.approveTemplate',
  'sandbox.setBalance',
  'sandbox.setSettings',
  'sandbox.setFault',
  'sandbox.clearFaults',
  'sandbox.requests',
  // signature
  'signature.compute',
  'signature.verify',
  'signature.diagnose',
  'signature.parseRequest',
  'signature.exportVector',
  'signature.checkVectors',
  'signature.probeClock',
  'signature.probeVariant',
] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];

/** Push events from main, by name, with the channel they travel on (channel names say their direction). */
export const EVENT_CHANNELS = {
  messageUpdated: 'main:message-updated',
  bulkProgress: 'main:bulk-progress',
  dialProgress: 'main:dial-progress',
  quickDial: 'main:quick-dial',
  callEnded: 'main:call-ended',
  storageProblem: 'main:storage-problem',
  importProgress: 'main:import-progress',
  profileUpdated: 'main:profile-updated',
} as const;

export type EventChannelNames = typeof EVENT_CHANNELS;
