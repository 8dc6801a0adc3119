export * from './frames';
export * from './codec';
export * from './limits';
export * from './lanes';
