// Both agents' turn order: in one lane a job (a turn, a command) starts when the one before it is done;
// lanes run side by side. The running job's turn is kept so stop and steer can reach it.

/** A queued piece of work: it calls `done` once, when the next job of its lane may start. */
export type Job = (done: () => void) => void;

interface Lane<T> {
  running: boolean;
  active?: T;
  jobs: Job[];
}

export class LaneQueues<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  private closed = false;

  /** `log` hears a job that threw (its lane goes on with the next job); `name` says whose job it was. */
  constructor(
    private readonly name: string,
    private readonly log: (line: string) => void,
  ) {}

  enqueue(lane: string, job: Job): void {
    let q = this.lanes.get(lane);
    if (!q) this.lanes.set(lane, (q = { running: false, jobs: [] }));
    q.jobs.push(job);
    this.pump(q);
  }

  /** The turn the running job of this lane works on, if it said so with `activate`. */
  active(lane: string): T | undefined {
    return this.lanes.get(lane)?.active;
  }

  /** The running job of this lane works on `turn` (until it calls done). */
  activate(lane: string, turn: T): void {
    const q = this.lanes.get(lane);
    if (q) q.active = turn;
  }

  /** Drops every waiting job and starts no more; returns the turns still running (the caller ends them). */
  close(): T[] {
    this.closed = true;
    const running: T[] = [];
    for (const q of this.lanes.values()) {
      q.jobs.length = 0;
      if (q.active !== undefined) running.push(q.active);
    }
    return running;
  }

  private pump(q: Lane<T>): void {
    if (q.running || this.closed) return;
    const job = q.jobs.shift();
    if (!job) return;
    q.running = true;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      q.running = false;
      q.active = undefined;
      this.pump(q);
    };
    try {
      job(done);
    } catch (err) {
      this.log(`gateway: ${this.name} job failed: ${(err as Error).stack ?? String(err)}`);
      done();
    }
  }
}
