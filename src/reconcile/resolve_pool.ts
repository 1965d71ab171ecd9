import type { Resolved } from "./resolve.ts";

/** What a resolving Worker is told once: the journal to read and the roots' folders. */
export interface ResolveInit {
  journal: string;
  roots: [number, string][];
}

type Reply = { id: number; found: Resolved[] } | { id: number; error: string };

/** Files handed to a Worker at a time: small enough to spread the work, large enough to amortise a message. */
const OWNERS_PER_MESSAGE = 32;

/**
 * The last phase of a root's resolution (see `Resolver.resolvedReferences`)
 * on `workers` Workers, each reading the journal on a connection of its
 * own, while `apply` writes what they find on the caller's connection, in
 * arrival order, one batch after another. Files are dealt a few at a time to
 * whichever Worker is free, so that the Workers stay busy to the end.
 *
 * Never rejects for a Worker's sake: when one fails, every Worker stops and
 * the files not yet answered are returned, for the caller to resolve itself
 * (a file half answered is harmless: `applyResolved` skips what is gone).
 */
export async function resolveOnWorkers(
  init: ResolveInit,
  owners: readonly number[],
  workers: number,
  apply: (found: Resolved[]) => Promise<void>,
): Promise<number[]> {
  const queue: number[][] = [];
  for (let i = 0; i < owners.length; i += OWNERS_PER_MESSAGE) {
    queue.push(owners.slice(i, i + OWNERS_PER_MESSAGE));
  }
  const unanswered = new Map<number, number[]>();
  let applying = Promise.resolve();
  let failed = false;
  const started: Worker[] = [];
  let nextId = 1;
  await new Promise<void>((done) => {
    let running = 0;
    const stop = () => {
      failed = true;
      for (const w of started) w.terminate();
      done();
    };
    const feed = (worker: Worker) => {
      const owners = queue.shift();
      if (owners === undefined) {
        worker.terminate();
        if (--running === 0) done();
        return;
      }
      const id = nextId++;
      unanswered.set(id, owners);
      worker.postMessage({ id, owners });
    };
    for (let i = 0; i < Math.min(workers, queue.length); i++) {
      const worker = new Worker(new URL("./resolve_worker.ts", import.meta.url), {
        type: "module",
      });
      started.push(worker);
      running++;
      worker.onmessage = (e: MessageEvent<Reply>) => {
        if (failed) return;
        if ("error" in e.data) return stop();
        const { id, found } = e.data;
        applying = applying.then(async () => {
          await apply(found);
          unanswered.delete(id);
        });
        // A write that fails ends the pass (the caller sees its error); no more reading.
        applying.catch(() => failed || stop());
        feed(worker);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        if (!failed) stop();
      };
      worker.postMessage(init);
      feed(worker);
    }
    if (running === 0) done();
  });
  await applying;
  if (!failed) return [];
  return [...[...unanswered.values()].flat(), ...queue.flat()].sort((a, b) => a - b);
}
