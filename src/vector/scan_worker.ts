/// <reference lib="deno.worker" />
/**
 * A Worker that scans shards in place: the shards' memories are shared with
 * the main thread, which writes the query and owns every other write. One
 * kernel instance per shard, made when the shard is registered.
 */
import { bindKernel, type Kernel, kernelModule } from "./kernel.ts";
import { type ScanHit, scanShard } from "./packed.ts";
import type { ScanMessage, ScanReply } from "./scan_pool.ts";
import { mergeTopK } from "./topk.ts";

const shards = new Map<number, { memory: WebAssembly.Memory; kernel: Kernel }>();

self.onmessage = (e: MessageEvent<ScanMessage>) => {
  const m = e.data;
  if (m.type === "add") {
    shards.set(m.key, {
      memory: m.memory,
      kernel: bindKernel(m.memory, m.module ?? kernelModule()),
    });
    return;
  }
  if (m.type === "drop") {
    shards.delete(m.key);
    return;
  }
  let reply: ScanReply;
  try {
    const lists: ScanHit[][] = [];
    for (const s of m.shards) {
      const shard = shards.get(s.key);
      if (!shard) throw new Error(`shard ${s.key} is not registered with this worker`);
      lists.push(
        scanShard(
          { memory: shard.memory, quant: s.quant, dims: s.dims, count: s.count },
          m.k,
          m.filter,
          shard.kernel,
        ),
      );
    }
    reply = { id: m.id, hits: mergeTopK(lists, m.k) };
  } catch (err) {
    reply = { id: m.id, error: (err as Error)?.message ?? String(err) };
  }
  self.postMessage(reply);
};
