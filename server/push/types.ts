/** The push sink contract is the reference gateway's (server/gateway/types.ts); this module implements it. */
export type { PushPayload, PushSink, PushTarget } from '../gateway';

/** Structured log line. Callers must never pass secrets (topics, endpoints, keys, message text). */
export type PushLog = (event: string, fields?: Record<string, string | number | boolean | undefined>) => void;
