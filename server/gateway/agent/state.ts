// The demo agent's durable state: the chosen model, pickers waiting for an answer, and turns that
// were streaming (so a restart can close them instead of leaving a bubble streaming forever).
import type { ServerFrame } from '../../../src/protocol';
import type { Persistence } from '../persistence';

const FILE = 'agent.json';

export interface PendingPicker {
  picker_id: string;
  type: 'picker.model' | 'picker.choice' | 'picker.clarify' | 'picker.approval' | 'picker.confirm';
  lane: string;
  /** The command the approval is about, the values a choice offers, … */
  detail: Record<string, unknown>;
  created: number;
  /** The picker frame as posted: restated to a device paired while it waits (absent in older state files). */
  frame?: ServerFrame;
}

export interface InflightTurn {
  message_id: string;
  lane: string;
}

interface AgentFile {
  provider: string;
  model: string;
  pickers: PendingPicker[];
  inflight: InflightTurn[];
}

export class AgentState {
  provider = 'demo';
  model = 'iris-demo-1';
  readonly pickers = new Map<string, PendingPicker>();
  readonly inflight = new Map<string, InflightTurn>();

  constructor(private readonly persistence: Persistence) {
    const saved = persistence.readJson<AgentFile>(FILE);
    if (saved) {
      if (typeof saved.provider === 'string') this.provider = saved.provider;
      if (typeof saved.model === 'string') this.model = saved.model;
      for (const p of saved.pickers ?? []) if (p && typeof p.picker_id === 'string') this.pickers.set(p.picker_id, p);
      for (const t of saved.inflight ?? [])
        if (t && typeof t.message_id === 'string') this.inflight.set(t.message_id, t);
    }
  }

  /** Record a change; `durable` writes it before returning (`everything`: with all other pending files). */
  save(durable: false | 'self' | 'everything' = false): void {
    this.persistence.mark(FILE, (): AgentFile => ({
      provider: this.provider,
      model: this.model,
      pickers: [...this.pickers.values()],
      inflight: [...this.inflight.values()],
    }));
    if (durable === 'self') this.persistence.flushSync(FILE);
    else if (durable === 'everything') this.persistence.flushSync();
  }
}
