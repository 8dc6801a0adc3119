// The fault-injecting proxy used by the fault suite (e2e/faults) and its own tests.
export {
  FaultProxy,
  type CutOptions,
  type Direction,
  type FaultProxyOptions,
  type FaultStats,
  type ProxyTarget,
} from './proxy';
export { WsFrameTracker } from './frames';
