import { parseFlags } from "./flags.ts";
import {
  clearDamage,
  depthClamps,
  filesPerRoot,
  getMeta,
  Journal,
  JournalCorruptError,
  journalCounts,
  JournalMissingError,
  lastAudit,
  listRoots,
  markDamaged,
  queueStats,
  quickCheck,
  unreadablePaths,
} from "../store/mod.ts";
import {
  filesToRederive,
  readFault,
  waitingDaemon,
  WATCH_LIMIT_KEY,
  writerHolderInfo,
} from "../reconcile/mod.ts";
import type { Context } from "./context.ts";
import { EXIT } from "./exit_codes.ts";
import { ago, plural, printable } from "../present/fmt.ts";
import { activeModel, earlierInstall, vectorStoreHealth } from "../vector/mod.ts";
import { pingServer, type ServerState } from "../harness/hook_wire.ts";
import { isFolderGone } from "../files/mod.ts";
import { shellLine } from "../present/shell.ts";

/** The two ways out for a root whose folder is gone from disk. */
export const GONE_ROOT =
  "put the folder back (it is indexed again), or drop the root (its memories stay)";

/**
 * Up to this size `status` runs quick_check by default: it reads every page,
 * 1.6 ms per MiB measured on an idle machine, ~6 under load
 * (scripts/faults/corruption.ts): at most ~0.1–0.4 s.
 */
const QUICK_CHECK_MIB = 64;

export const HELP = `heimdall status [--json] [--check]
  Roots (also those added to or removed from config.json that the writer
  has not indexed or dropped yet), counts, queue length, whether the daemon
  is up, whether the warm server that answers hooks and searches does (a
  ping), the last audit, how many secret files were skipped, how many files
  another build indexed (the next audit derives them again), and the
  semantic leg: its model (or why it is off) and the vectors stored per
  model. Checks the journal for damage
  (SQLite's quick_check reads every page: always with --check, by default only
  for a journal under ${QUICK_CHECK_MIB} MiB); a damaged journal exits 3 and
  names the remedy, \`heimdall rebuild\`. So does one it cannot read at all
  (newer than this build, empty, not this user's to write), each with its own
  remedy; a home with no journal yet exits 0.`;

/** How long status waits for the warm server's answer to a ping. */
const SERVER_PING_MS = 500;

/** The `server` line of `heimdall status` (pure). */
export function serverLine(server: ServerState | null): string {
  if (server === null) {
    return "not running (the first hook or search starts one; until then each search runs in its own process)";
  }
  const pid = server.pid ?? "unknown";
  return server.answering
    ? `warm, pid ${pid} on 127.0.0.1:${server.port}: answers hooks and searches`
    : `pid ${pid} did not answer a ping within ${SERVER_PING_MS} ms: hooks answer nothing and searches run in their own process until the next hook replaces it`;
}

/** `heimdall status`: what the index holds and who writes it. */
export async function run(args: string[], ctx: Context): Promise<number> {
  const { values } = parseFlags(args, { boolean: ["json", "check"], positionals: false });
  const info = await writerHolderInfo(ctx.home);
  // The lock's holder is the daemon, or a one-shot writer (index, rebuild…),
  // whose pass is under way: the counts are mid-way, not the daemon's. A
  // label without a role comes from an older build: most likely its daemon.
  const isDaemon = info !== null && (info.role === undefined || info.role === "daemon");
  const holder = isDaemon ? info.pid ?? "unknown" : null;
  const writer = info !== null && !isDaemon ? { pid: info.pid ?? null, role: info.role! } : null;
  // A daemon started while that one-shot writer writes waits for it to finish.
  const waiting = holder === null ? await waitingDaemon(ctx.home) : null;
  let journal: Journal;
  try {
    journal = Journal.open(ctx.home.journal, { readOnly: true });
  } catch (e) {
    // A config.json that does not parse stops `index` before it writes a
    // journal: "run heimdall index DIR" (exit 0) sent the user into that
    // error instead of naming it here, as status does once a journal exists.
    if (e instanceof JournalMissingError) ctx.config();
    const status = {
      home: ctx.home.home,
      journal: null,
      daemon: holder,
      writer,
      message: (e as Error).message,
      ...(e instanceof JournalCorruptError ? { damaged: e.detail } : {}),
    };
    if (values.json) ctx.out(JSON.stringify(status));
    else ctx.out(`${ctx.home.home}: ${(e as Error).message}`);
    // Nothing indexed yet is a state; a journal that cannot be read is a fault.
    return e instanceof JournalMissingError ? EXIT.ok : EXIT.env;
  }
  try {
    const damage = checkIntegrity(journal, ctx, values.check === true);
    if (damage !== undefined) {
      const error = new JournalCorruptError(journal.file, damage);
      if (values.json) {
        ctx.out(JSON.stringify({
          home: ctx.home.home,
          journal: journal.file,
          daemon: holder,
          writer,
          damaged: damage,
          message: error.message,
        }));
      } else ctx.out(`${ctx.home.home}: ${error.message}`);
      return EXIT.env;
    }
    const roots = listRoots(journal);
    // config.json says which folders are roots; the journal catches up at the
    // writer's next pass: a root added waits to be indexed, one removed to be dropped.
    const configured = new Set(ctx.config().roots.map((r) => r.path));
    const indexed = new Set(roots.map((r) => r.path));
    const notIndexed = [...configured].filter((p) => !indexed.has(p));
    const counts = journalCounts(journal);
    const perRoot = filesPerRoot(journal);
    const queue = queueStats(journal);
    let hints = 0;
    try {
      for (const e of Deno.readDirSync(ctx.home.hints)) if (e.name.endsWith(".hint")) hints++;
    } catch { /* no hints folder yet */ }
    const secrets = roots.reduce((a, r) => a + r.secrets_skipped, 0);
    const lastAuditMs = Number(getMeta(journal, "last_audit_ms") ?? 0) ||
      Math.max(0, ...roots.map((r) => lastAudit(journal, r.id) ?? 0)) || null;
    const size = fileSize(ctx.home.journal) + fileSize(ctx.home.journal + "-wal");
    // Files that could go deeper if this build could (grammar missing or broken, budget).
    const clamped = depthClamps(journal, 5);
    // Files no reconcile can index as they are (unreadable), each with its reason.
    const unreadable = unreadablePaths(journal, UNREADABLE_SHOWN);
    const active = activeModel(ctx.home).status();
    // Vectors another install of this name made are not searched: say so, as search does.
    const earlier = active.on
      ? earlierInstall(journal, active.model, active.fingerprint)
      : undefined;
    const model = earlier === undefined ? active : { on: false as const, reason: earlier };
    const server = await pingServer(ctx.home.home, SERVER_PING_MS);
    const status = {
      home: ctx.home.home,
      daemon: holder === null ? null : holder,
      daemon_waiting: waiting,
      writer,
      // The warm server that answers hooks and command-line searches.
      server,
      roots: roots.map((r) => ({
        path: r.path,
        depth: r.depth,
        files: perRoot.get(r.id) ?? 0,
        secrets_skipped: r.secrets_skipped,
        ignored_skipped: r.ignored_skipped,
        last_audit_ms: lastAudit(journal, r.id),
        // Moved or deleted: its files leave the index, and nothing is indexed there until it is back.
        gone: isFolderGone(r.path),
        // No longer in config.json: search leaves its files out, the next writer pass drops them.
        removed: !configured.has(r.path),
      })),
      // In config.json, not indexed yet.
      roots_not_indexed: notIndexed,
      paths: counts.paths,
      // Derived by another build: the next audit derives them again.
      rederive: filesToRederive(journal, ctx.config().vocabularyWeight),
      nodes: counts.nodes,
      edges: counts.edges,
      pending_edges: counts.pending,
      queue: queue.length,
      hints_waiting: hints,
      secrets_skipped: secrets,
      last_audit_ms: lastAuditMs,
      journal_bytes: size,
      clamped,
      unreadable,
      // Only a running daemon's watcher can be short of watches.
      watch_limit: holder === null ? null : getMeta(journal, WATCH_LIMIT_KEY) ?? null,
      // The daemon's last failed pass (the journal may have been the thing that failed).
      last_error: readFault(ctx.home),
      semantic: model,
      vectors: vectorStoreHealth(journal, model.on ? model.model : undefined),
    };
    if (values.json) {
      ctx.out(JSON.stringify(status));
      return EXIT.ok;
    }
    ctx.out(`home     ${status.home}`);
    ctx.out(
      `daemon   ${
        holder !== null
          ? `running, pid ${holder}`
          : waiting !== null
          ? `waiting, pid ${waiting}: it starts once the one-shot writer below is done`
          : "not running (start it with `heimdall daemon`)"
      }`,
    );
    ctx.out(`server   ${serverLine(server)}`);
    if (writer !== null) {
      ctx.out(
        `writer   \`heimdall ${writer.role}\` (pid ${
          writer.pid ?? "unknown"
        }) is writing now: the counts below are mid-way`,
      );
    }
    for (const r of status.roots) {
      ctx.out(
        `root     ${r.path}  ${plural(r.files, "file")}, depth ${r.depth}, audited ${
          ago(r.last_audit_ms)
        }${
          r.removed
            ? `; removed from config.json: search leaves it out, the next writer pass (the daemon, \`heimdall reconcile\`) drops its files`
            : r.gone
            ? `; gone from disk: ${GONE_ROOT}: ${
              shellLine(["heimdall", "roots", "remove", r.path])
            }`
            : ""
        }`,
      );
    }
    for (const path of notIndexed) {
      ctx.out(
        `root     ${path}  not indexed yet: ${
          holder !== null ? "the daemon indexes it" : "`heimdall reconcile --all` indexes it"
        }`,
      );
    }
    const files = Object.entries(counts.paths).map(([k, v]) => `${v} ${k}`).join(", ") || "none";
    ctx.out(`files    ${files}`);
    if (status.rederive > 0) {
      ctx.out(
        `derive   ${
          plural(status.rederive, "file")
        } indexed by another build: the daemon's next audit derives them again (\`heimdall reconcile --all\` does it now); until then they answer as they were read`,
      );
    }
    ctx.out(
      `graph    ${plural(counts.nodes, "node")}, ${
        plural(counts.edges, "edge")
      }, ${counts.pending} pending`,
    );
    if (status.watch_limit) ctx.out(`watcher  ${status.watch_limit}`);
    ctx.out(`queue    ${plural(queue.length, "path")} queued, ${plural(hints, "hint")} waiting`);
    ctx.out(`secrets  ${plural(secrets, "file")} skipped, never stored`);
    ctx.out(`audit    last ${ago(lastAuditMs)}`);
    const fault = status.last_error;
    if (fault) {
      ctx.out(
        `error    ${fault.kind}: ${fault.message}, ${ago(fault.at_ms)} (${
          plural(fault.failures, "failed pass", "failed passes")
        } in a row; ${
          fault.recovered_ms !== null
            ? `recovered ${ago(fault.recovered_ms)}`
            : holder === null
            ? "the daemon is not running; start it with `heimdall daemon`"
            : `still failing, next retry in ${
              Math.max(0, Math.round((fault.retry_at_ms - Date.now()) / 1000))
            }s; see logs/daemon.log`
        })`,
      );
    }
    ctx.out(`journal  ${(size / 1048576).toFixed(1)} MiB`);
    const v = status.vectors;
    ctx.out(
      `semantic ${
        model.on
          ? `on: ${model.model}, ${plural(v.active?.vectors ?? 0, "vector")} for ${
            plural(v.chunks, "chunk")
          } (${v.active?.missing ?? 0} still to embed)`
          : `off: ${model.reason}`
      }`,
    );
    if (v.fault) ctx.out(`vectors  FAULT: ${v.fault}`);
    for (const c of clamped) {
      ctx.out(
        `depth    ${
          plural(c.n, "file")
        } below the depth asked for: ${c.reason} (see \`heimdall depth\`)`,
      );
    }
    // One line per file, whatever its name holds (a newline is printed as \n).
    for (const u of unreadable) ctx.out(`skipped  ${printable(u.path)} — ${printable(u.reason)}`);
    const more = (counts.paths["error"] ?? 0) - unreadable.length;
    if (more > 0) ctx.out(`skipped  … and ${more} more (\`heimdall verify\` lists them all)`);
    return EXIT.ok;
  } finally {
    journal.close();
  }
}

/**
 * The journal's damage, or undefined when it is sound: quick_check when asked
 * or the journal is small enough, else what is already known (the marker).
 * A clean quick_check clears a stale marker (the file was replaced since).
 */
function checkIntegrity(journal: Journal, ctx: Context, asked: boolean): string | undefined {
  const mib = (fileSize(journal.file) + fileSize(journal.file + "-wal")) / 1048576;
  if (!asked && mib > QUICK_CHECK_MIB) return journal.damage;
  const found = quickCheck(journal.db);
  if (found !== undefined) markDamaged(journal.file, found);
  else if (journal.damage !== undefined) clearDamage(ctx.home.journal);
  return found;
}

function fileSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}

/** How many unreadable files `status` names one by one. */
const UNREADABLE_SHOWN = 10;
