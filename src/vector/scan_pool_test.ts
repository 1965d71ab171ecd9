import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ScanPool } from "./scan_pool.ts";

Deno.test({
  name: "a scan Worker that fails rejects the scan with its own error, not 'the pool was closed'",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync();
    try {
      const module = join(dir, "failing_worker.ts");
      Deno.writeTextFileSync(
        module,
        'self.onmessage = (e) => { if (e.data.type === "scan") throw new Error("kernel exploded"); };\n',
      );
      const pool = new ScanPool(1, 30_000, pathToFileURL(module));
      const shard = {
        key: 1,
        memory: new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }),
        quant: "f32" as const,
        dims: 4,
        count: 0,
      };
      await assert.rejects(
        pool.scan([shard], 5, {}),
        /vector scan worker failed: .*kernel exploded/,
      );
      pool.close();
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
