export * from './i18n-text';
export * from './units';
export * from './mobile';
export * from './templates';
export * from './codes';
export * from './status';
export * from './outcomes';
export * from './figures';
