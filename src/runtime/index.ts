export { createRuntime, type IrisRuntime, type RuntimeOptions, type RuntimeParts } from './runtime';
export { IrisContext, useIris } from './context';
