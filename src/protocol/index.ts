export * from './frames';
export * from './codec';
