export { createRuntime, type IrisRuntime, type RuntimeOptions, type RuntimeParts } from './runtime';
