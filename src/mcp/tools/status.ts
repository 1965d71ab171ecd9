/** `status`: what the index holds, whether it is fresh, and the semantic leg's state. */
import { ago } from "../../present/fmt.ts";
import { indexHealth } from "../health.ts";
import { LOOKUP, type ToolDef } from "../tool.ts";

export const statusTool: ToolDef = {
  name: "status",
  title: "Index status",
  description:
    "What Heimdall's index holds (roots, files, symbols), whether it is fresh (daemon, last audit, queue), " +
    "and whether the semantic search leg is on.",
  input: {},
  annotations: LOOKUP,
  async run(_a, ctx) {
    const h = await indexHealth(ctx.home, ctx.config());
    const lines = [
      `home ${h.home}`,
      h.journal
        ? `index ${
          Object.entries(h.journal.paths).map(([k, v]) => `${v} ${k}`).join(", ") || "empty"
        }; ${h.journal.nodes} symbols, ${h.journal.edges} edges`
        : `index: ${h.journal_error}`,
      `daemon ${
        h.daemon.running
          ? `running (pid ${h.daemon.pid})`
          : `not running${h.writer ? ` (a one-shot \`heimdall ${h.writer.role}\` writes now)` : ""}`
      }; queue ${h.queue}, hints waiting ${h.hints_waiting}; last audit ${ago(h.last_audit_ms)}`,
      ...h.roots.map((r) => `root ${r.path}: ${r.files} files, audited ${ago(r.last_audit_ms)}`),
      h.stale ? `STALE: ${h.stale_reason}` : "fresh",
      h.semantic.on
        ? `semantic leg on: ${h.semantic.model}`
        : `semantic leg off: ${h.semantic.reason}`,
      ...(h.vectors
        ? [
          `vectors ${h.vectors.total} for ${h.vectors.chunks} chunks${
            h.vectors.fault ? `; FAULT: ${h.vectors.fault}` : ""
          }`,
        ]
        : []),
    ];
    return { text: lines.join("\n"), structured: h as unknown as Record<string, unknown> };
  },
};
