export { createRuntime, type IrisRuntime, type RuntimeParts } from './runtime';
export { IrisContext, useIris } from './context';
