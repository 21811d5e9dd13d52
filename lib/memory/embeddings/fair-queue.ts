import type { EmbeddingRequester } from "./provider";

/** Work queued by nobody in particular (re-embedding after a model change, a benchmark) shares one lane. */
const UNATTRIBUTED = "";

/**
 * Ingestion work, taken round-robin: one job of each organization with work queued in turn, and within
 * an organization one job of each key in turn; each key's own jobs stay in the order they came. A batch
 * of a hundred jobs therefore delays another organization's single job by at most one job per other
 * organization waiting, instead of the whole batch (first-in first-out).
 */
export class FairQueue<Job> {
  /** Organizations with work queued, in turn order; each with its keys, in turn order, and their jobs. */
  private readonly organizations = new Map<string, Turns<Job[]>>();
  private readonly turns: Turns<Turns<Job[]>> = { entries: this.organizations };
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(requester: EmbeddingRequester | undefined, job: Job) {
    const orgId = requester?.orgId ?? UNATTRIBUTED;
    const keyId = requester?.keyId ?? UNATTRIBUTED;
    let keys = this.organizations.get(orgId);
    if (!keys) this.organizations.set(orgId, (keys = { entries: new Map() }));
    let jobs = keys.entries.get(keyId);
    if (!jobs) keys.entries.set(keyId, (jobs = []));
    jobs.push(job);
    this.count++;
  }

  /**
   * The next job that `fits` (any job by default): the first job of the next key of the next organization,
   * skipping keys and organizations whose first job does not fit. The one served goes to the back of its turn.
   */
  shift(fits: (job: Job) => boolean = () => true): Job | undefined {
    for (const [orgId, keys] of inTurn(this.turns)) {
      for (const [keyId, jobs] of inTurn(keys)) {
        if (!fits(jobs[0])) continue;
        const job = jobs.shift()!;
        this.count--;
        served(keys, keyId, jobs.length > 0 ? jobs : undefined);
        served(this.turns, orgId, keys.entries.size > 0 ? keys : undefined);
        return job;
      }
    }
    return undefined;
  }

  /** Takes every queued job out (closing, or the model failed to load). */
  drain(): Job[] {
    const all = [...this.organizations.values()].flatMap((keys) => [...keys.entries.values()].flat());
    this.organizations.clear();
    this.count = 0;
    return all;
  }
}

/** Entries taking turns; a Map keeps insertion order, so deleting and setting again sends one to the back. */
interface Turns<Value> {
  entries: Map<string, Value>;
  /** Whose turn it was last (at the back, unless newcomers arrived since: they go first). */
  lastServed?: string;
}

/** The entries in turn order: the one served last goes behind any newcomer that arrived after its turn. */
function inTurn<Value>(turns: Turns<Value>): [string, Value][] {
  const first = turns.entries.entries().next();
  if (!first.done && first.value[0] === turns.lastServed && turns.entries.size > 1) {
    turns.entries.delete(first.value[0]);
    turns.entries.set(...first.value);
  }
  return [...turns.entries.entries()];
}

/** Records a turn taken: the entry goes to the back with what it has left, or leaves when it has nothing. */
function served<Value>(turns: Turns<Value>, id: string, rest: Value | undefined) {
  turns.entries.delete(id);
  if (rest !== undefined) turns.entries.set(id, rest);
  turns.lastServed = id;
}
