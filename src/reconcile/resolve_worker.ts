/// <reference lib="deno.worker" />
/**
 * A resolving Worker (see `resolve_pool.ts`): opens the journal read-only and
 * answers each batch of files with the references that resolve there. Its
 * resolver's caches live as long as the Worker, across batches.
 */
import { yieldToForeground } from "../config/mod.ts";
import { Journal } from "../store/mod.ts";
import { type Resolved, Resolver } from "./resolve.ts";
import type { ResolveInit } from "./resolve_pool.ts";
import { readTsconfigAliases } from "./tsconfig.ts";

yieldToForeground();
let resolver: Resolver | undefined;
/** Why the journal could not be opened: every batch is answered with it. */
let openError: string | undefined;

self.onmessage = (e: MessageEvent<ResolveInit | { id: number; owners: number[] }>) => {
  const m = e.data;
  if ("journal" in m) {
    const roots = new Map(m.roots);
    try {
      // Not mapped (see Journal.open): this Worker lives in the indexing process, whose resident
      // memory is bounded.
      const journal = Journal.open(m.journal, { readOnly: true });
      resolver = new Resolver(journal, (rootId) => {
        const path = roots.get(rootId);
        return path === undefined ? new Map() : readTsconfigAliases(path);
      }, { onePass: true });
    } catch (err) {
      openError = err instanceof Error ? err.message : String(err);
    }
    return;
  }
  try {
    if (openError !== undefined) throw new Error(openError);
    const found: Resolved[] = [];
    for (const f of resolver!.resolvedReferences(m.owners)) if (f) found.push(f);
    self.postMessage({ id: m.id, found });
  } catch (err) {
    self.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
};
