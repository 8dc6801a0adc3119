// What the Hermes bridge must remember across a restart: each lane's Hermes session id (so every
// channel and thread is its own Hermes conversation), the model chosen per lane, the runs in flight
// (to reattach or close them), approvals waiting for an answer, and which Hermes sessions' history
// each lane has imported (once each). One file, hermes.json.
import { randomUUID } from 'node:crypto';
import type { ServerFrame } from '../../../src/protocol';
import type { Persistence } from '../persistence';

const FILE = 'hermes.json';

export interface InflightRun {
  message_id: string;
  lane: string;
  session_id: string;
  /** Absent until Hermes answered the POST. */
  run_id?: string;
  /** The text streamed so far (kept when a restart cannot recover the run). */
  text: string;
}

export interface PendingApproval {
  picker_id: string;
  kind: 'approval' | 'model';
  lane: string;
  run_id?: string;
  command?: string;
  choices?: string[];
  models?: string[];
  /** The picker frame as posted: restated to a device paired while it waits (absent in older state files). */
  frame?: ServerFrame;
}

interface HermesFile {
  sessions: Record<string, string>;
  models: Record<string, string>;
  runs: InflightRun[];
  pickers: PendingApproval[];
  imported?: Record<string, string[]>;
}

export class HermesState {
  readonly sessions = new Map<string, string>();
  readonly models = new Map<string, string>();
  readonly runs = new Map<string, InflightRun>();
  readonly pickers = new Map<string, PendingApproval>();
  /** Per lane, the Hermes sessions whose earlier messages it has imported. */
  readonly imported = new Map<string, string[]>();

  constructor(private readonly persistence: Persistence) {
    const saved = persistence.readJson<HermesFile>(FILE);
    if (!saved) return;
    for (const [lane, sid] of Object.entries(saved.sessions ?? {}))
      if (typeof sid === 'string') this.sessions.set(lane, sid);
    for (const [lane, model] of Object.entries(saved.models ?? {}))
      if (typeof model === 'string') this.models.set(lane, model);
    for (const r of saved.runs ?? [])
      if (r && typeof r.message_id === 'string' && typeof r.lane === 'string')
        this.runs.set(r.message_id, { ...r, text: typeof r.text === 'string' ? r.text : '' });
    for (const p of saved.pickers ?? []) if (p && typeof p.picker_id === 'string') this.pickers.set(p.picker_id, p);
    for (const [lane, ids] of Object.entries(saved.imported ?? {}))
      if (Array.isArray(ids))
        this.imported.set(
          lane,
          ids.filter((id) => typeof id === 'string'),
        );
  }

  /** The lane's Hermes session id, made (and kept) on first use. */
  sessionFor(lane: string): string {
    let sid = this.sessions.get(lane);
    if (!sid) {
      sid = `iris-${lane.replace(/[^\w-]/g, '-').slice(0, 60)}-${randomUUID().slice(0, 8)}`;
      this.sessions.set(lane, sid);
      this.save('self');
    }
    return sid;
  }

  save(durable: false | 'self' = false): void {
    this.persistence.mark(FILE, (): HermesFile => ({
      sessions: Object.fromEntries(this.sessions),
      models: Object.fromEntries(this.models),
      runs: [...this.runs.values()],
      pickers: [...this.pickers.values()],
      imported: Object.fromEntries(this.imported),
    }));
    if (durable === 'self') this.persistence.flushSync(FILE);
  }
}
