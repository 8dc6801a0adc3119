export * from './frames';
export * from './codec';
export * from './limits';
