// The fault-injecting proxy used by the fault suite (e2e/faults) and its own tests.
export { FaultProxy } from './proxy';
