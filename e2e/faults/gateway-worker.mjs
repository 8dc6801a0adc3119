// Worker entry: a worker thread does not inherit `--import tsx`, so it registers tsx itself and then
// loads the TypeScript worker body.
import { register } from 'tsx/esm/api';

register();
await import('./gateway-worker.ts');
