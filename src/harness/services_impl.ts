/**
 * The hook's {@link Services}, bound to the real modules: search (prior
 * work), the architectural map (constraints), memory (decisions, failed
 * attempts, attempts, progress notes) and team (tasks, claims, conflicts). Loaded by the hook on first use only, so a
 * hook that needs none of it never pays for these imports. Every call here
 * may throw; the hook logs and carries on without it.
 *
 * With a shared team store (`heimdall team connect`), reads of memory pull
 * the team's memories first, and attempts and progress notes are written
 * through the store, as the CLI does; every step on the store is bounded
 * and fails open (see `team_link.ts`). A write whose store cannot be
 * reached is kept on this machine as a private memory (logged).
 */
import { dirname, join, redactSecrets, relative, sniffSecret } from "../files/mod.ts";
import {
  type Config,
  type ConfigEnv,
  ENV_OVERRIDES,
  type HomePaths,
  loadConfig,
  logUsage,
} from "../config/mod.ts";
import type { AttemptInput, RememberInput } from "../memory/mod.ts";
import type { Team } from "../team/mod.ts";
import { Journal } from "../store/mod.ts";
import type { ContextItem } from "./budget.ts";
import { hookLog } from "./hook_log.ts";
import type { RegionSymbol } from "./region.ts";
import type { AttemptRecord, ConflictWarning, Services } from "./services.ts";
import { TeamLink } from "./team_link.ts";

/** The failing tests a memory row lists (stored as a JSON array, or lines). */
function failingTests(stored: string | null): string {
  if (!stored) return "";
  let list: string[];
  try {
    const v = JSON.parse(stored);
    list = Array.isArray(v) ? v.map(String) : [String(v)];
  } catch {
    list = stored.split("\n");
  }
  list = list.filter((t) => t.trim() !== "");
  return list.length > 0
    ? ` (failing: ${list.slice(0, 3).join(", ")}${list.length > 3 ? ", …" : ""})`
    : "";
}

/** Memories given back before work on some code, by kind: where they go and how they are named. */
const RECALLED: Partial<Record<string, { section: string; label: string }>> = {
  decision: { section: "Current decisions and conventions", label: "Decision" },
  convention: { section: "Current decisions and conventions", label: "Convention" },
  preference: { section: "Your preferences on this project", label: "Preference" },
  page: { section: "The project's knowledge page", label: "Page" },
};
/** A knowledge page is cut to this many characters in a hook's context. */
const PAGE_CHARS = 1500;

/** Verdicts in the order prior work is shown. */
const VERDICT_ORDER: Record<string, number> = { STRONG: 0, REBUILT: 1, WEAK: 2 };

/**
 * Builds the services for one hook request of `session`. `journal` is the
 * read-only journal (or null); `env` holds the hook's `HEIMDALL_*`
 * variables, which the config is read with (`HEIMDALL_ON_CONFLICT`,
 * `HEIMDALL_TEAM_URL`…), in the warm server as in the hook's own process.
 */
export function createServices(
  home: HomePaths,
  journal: () => Journal | null,
  session: { harness: string; sessionId: string; cwd: string },
  env: ConfigEnv = Deno.env,
): Services {
  let writable: Journal | undefined;
  const write = (): Journal => (writable ??= Journal.open(home.journal));
  const read = (): Journal => {
    const j = journal();
    if (!j) throw new Error("no journal");
    return j;
  };
  let author: string | undefined;
  const memory = () => import("../memory/mod.ts");
  const who = async (cwd: string) => (author ??= (await memory()).defaultAuthor(cwd));
  const target = (s: RegionSymbol) => `${s.path}:${s.qualname || s.name}`;
  const log = (message: string) => hookLog(home.home, message);
  let config: Config | null | undefined;
  /** The config, read once; null when it cannot be read (each use falls back to a safe default). */
  const configured = (): Config | null => {
    if (config === undefined) {
      try {
        config = loadConfig(home.config, env);
      } catch {
        config = null;
      }
    }
    return config;
  };
  /** The configured answer to a conflict; a config that cannot be read pauses (the safe default). */
  const conflictMode = (): "pause" | "warn" => configured()?.onConflict ?? "pause";
  // The team store, opened at most once per request, for the acting person, agent and session.
  const link = new TeamLink(
    home,
    { agent: session.harness, session: session.sessionId, cwd: session.cwd },
    log,
    env,
  );
  const team = () => import("../team/mod.ts");
  /** Before memory is read: the team's memories, pulled (bounded; nothing without a shared store). */
  const pull = () => link.sync();
  /**
   * A memory write through the team store; kept here as private when a
   * shared store cannot be reached (so it never touches the team's copies).
   */
  const record = async <I extends AttemptInput | RememberInput>(
    what: string,
    input: I,
    shared: (t: Team, j: Journal, i: I) => Promise<unknown>,
    local: (j: Journal, i: I, touchable: (m: { id: string }) => boolean) => unknown,
  ) => {
    const j = write();
    if (await link.team() !== null) {
      await link.call(what, (t) => shared(t, j, input));
      return;
    }
    const { sharedIn } = await memory();
    local(j, { ...input, scope: "private" }, (m) => sharedIn(j, null, [m.id]).size === 0);
    log(`team: ${what}: kept on this machine as a private memory`);
  };

  /**
   * Records an attempt on the symbols and paths `run` touched (nothing when
   * it touched none), by this session's author, through {@link record}.
   */
  const recordAttemptOn = async (
    what: string,
    cwd: string,
    run: Pick<AttemptRecord, "symbols" | "paths"> & { failed: string[]; taskId: string | null },
    outcome: AttemptInput["outcome"],
    text: string,
    shared: (t: Team, j: Journal, i: AttemptInput) => Promise<unknown>,
    local: (j: Journal, i: AttemptInput, touchable: (m: { id: string }) => boolean) => unknown,
  ) => {
    const about = attemptAbout(run);
    if (about.length === 0) return;
    const input: AttemptInput = {
      about,
      outcome,
      text,
      author: await who(cwd),
      tests: run.failed,
      taskId: run.taskId,
      cwd,
    };
    await record(what, input, shared, local);
  };

  return {
    async close() {
      writable?.close();
      await link.close();
    },

    async priorWork(query, limit, cwd, prompt) {
      const {
        configuredTuning,
        framedBy,
        INJECT_CONFIDENCE,
        namesSymbol,
        parseQuery,
        search,
        searchUsage,
        stackFrames,
      } = await import("../search/mod.ts");
      await pull();
      // The semantic leg stays off in a hook: loading a model would cost more than the hook may take.
      const repo = cwd === undefined ? undefined : repositoryOf(cwd);
      // Most hits are filtered out below: look further than the few that are kept.
      const res = await search(read(), {
        query,
        ...(prompt !== undefined ? { trace: prompt } : {}),
        limit: limit * 3,
        home,
        semantic: null,
        ...(repo !== undefined ? { near: repo } : {}),
        viewer: () => who(cwd ?? Deno.cwd()),
      }, configuredTuning({ vocabularyWeight: configured()?.vocabularyWeight ?? 0 }));
      logUsage(home, searchUsage("hook", res));
      const wholes = parseQuery(query).wholes;
      // The functions a pasted stack trace names are what it asks about, however it reads.
      const frames = stackFrames(prompt ?? query);
      const hits = res.hits.filter((h) =>
        (h.confidence >= INJECT_CONFIDENCE || namesSymbol(wholes, h.symbol) ||
          framedBy(frames, h)) &&
        !(h.verdict === "WEAK" && repo !== undefined && h.path !== null &&
          !h.path.startsWith(repo + "/"))
      ).sort((a, b) =>
        (VERDICT_ORDER[a.verdict] ?? 3) - (VERDICT_ORDER[b.verdict] ?? 3) || a.rank - b.rank
      );
      return hits.slice(0, limit).map((h): ContextItem => {
        const line = h.match_line ?? h.line;
        const where = h.path ? `${h.path}${line ? `:${line}` : ""}` : h.symbol ?? String(h.ref_id);
        const what = [h.symbol && h.path ? h.symbol : null, h.summary].filter((x) => x).join(" — ");
        return {
          key: `hit:${h.source}:${h.path ?? h.ref_id}:${h.symbol ?? ""}`,
          ...(h.path !== null ? { path: h.path } : {}),
          ...(h.source === "code" && h.symbol !== null ? { symbol: h.symbol } : {}),
          section: "Prior work (verified against the disk now)",
          text: `[${h.verdict}${h.source === "code" ? "" : ` ${h.source}`}] ${where}${
            what ? ` ${what}` : ""
          }`,
        };
      });
    },

    async constraints(paths, mustOnly) {
      const { constraintsFor, findMapFile, loadMap } = await import("../map/mod.ts");
      const items: ContextItem[] = [];
      const item = (level: string, component: string, text: string): ContextItem => ({
        key: `constraint:${component}:${text}`,
        section: mustOnly ? "Constraints (must)" : "Constraints",
        text: `${level === "must" ? "MUST" : level}: ${text} [${component}]`,
      });
      for (const p of paths) {
        let isDir = false;
        try {
          isDir = Deno.statSync(p).isDirectory;
        } catch { /* a new file: resolved by its path alone */ }
        if (isDir) {
          // The repository as a whole: every component's constraints.
          const found = findMapFile(p);
          if (!found) continue;
          for (const c of loadMap(found.file).components) {
            for (const k of c.constraints) {
              if (k.level === "must" || (!mustOnly && k.level === "should")) {
                items.push(item(k.level, c.name, k.text));
              }
            }
          }
          continue;
        }
        for (const k of constraintsFor(p)?.constraints ?? []) {
          if (k.level === "must" || (!mustOnly && k.level === "should")) {
            items.push(item(k.level, k.component, k.text));
          }
        }
      }
      return items;
    },

    async failures(symbols) {
      if (symbols.length === 0) return [];
      const { openFailures } = await memory();
      await pull();
      const viewer = await who(symbols[0]!.path);
      const byId = new Map(symbols.map((s) => [s.id, s]));
      return openFailures(read(), [...byId.keys()], viewer).map((m): ContextItem => {
        const on = m.anchors.map((a) => a.symbol ?? a.name).filter((x) => x).slice(0, 2).join(", ");
        const tests = failingTests(m.tests);
        return {
          key: `failure:${m.id}`,
          section: "Open failed attempts here or next door",
          text: `${m.count > 1 ? `${m.count}× ` : ""}${m.text}${tests}${on ? ` — on ${on}` : ""}`,
        };
      });
    },

    async decisions(symbols, paths) {
      const { why } = await memory();
      await pull();
      const viewer = await who(paths[0] ?? Deno.cwd());
      const items: ContextItem[] = [];
      const targets = [...symbols.slice(0, 6).map(target), ...paths.slice(0, 3)];
      for (const t of targets) {
        let res;
        try {
          res = why(read(), t, { viewer });
        } catch {
          continue; // not resolvable (a file not indexed yet): nothing recorded about it
        }
        for (const m of res.current) {
          const shown = RECALLED[m.kind];
          if (!shown) continue;
          const text = m.text.length > PAGE_CHARS ? `${m.text.slice(0, PAGE_CHARS - 1)}…` : m.text;
          items.push({
            key: `decision:${m.id}`,
            section: shown.section,
            // Private memories (preferences) are shown to their author only: why() saw to that.
            text: `${shown.label}: ${text} (${m.author}, via ${m.via})`,
          });
        }
      }
      return items;
    },

    async conflicts(_s, symbols) {
      if (symbols.length === 0) return [];
      const { conflictsAt } = await team();
      const found = await link.call("checking teammates' claims", async (t) => {
        const report = await conflictsAt(t, symbols.map((x) => x.id));
        // The person's own claims made in no session (\`heimdall claim\`, or the MCP
        // \`claim\` tool, whose server knows no session) are theirs in every session,
        // their agents' included: never "a teammate is changing" it.
        return report.conflicts.filter((c) =>
          !(c.claim.developer === t.who.developer && (c.claim.session ?? "") === "")
        );
      });
      return (found ?? []).map((c): ConflictWarning => {
        const who = `${c.claim.developer}${c.claim.agent ? ` (${c.claim.agent})` : ""}`;
        const how = c.relation === "same"
          ? "is changing"
          : `is changing ${c.relation === "callee" ? "a callee" : "a caller"} (${c.hops} hop${
            c.hops === 1 ? "" : "s"
          }):`;
        return {
          pair: `claim:${c.claim.id}`,
          item: {
            key: `claim:${c.claim.id}`,
            section: "Teammates changing code within reach (a warning, not a block)",
            text:
              `${who} ${how} ${
                c.claim.qualname || c.claim.path
              } in ${c.claim.repo}/${c.claim.path}` +
              (c.claim.taskText ? ` for "${c.claim.taskText.slice(0, 80)}"` : "") +
              (c.diverged ? " (their copy has changed since)" : ""),
          },
        };
      });
    },

    async startTask(_s, title) {
      const { startTask } = await team();
      return (await link.call("starting the task", (t) => startTask(t, title)))?.id ?? null;
    },

    onConflict() {
      return conflictMode();
    },

    async acknowledge(_s, pairs) {
      const ids = pairs.flatMap((p) => /^claim:(\d+)$/.exec(p)?.[1] ?? []).map(Number);
      if (ids.length === 0) return;
      await link.call("acknowledging the conflict", (t) => t.store.ack(t.who, ids));
    },

    async claim(_s, taskId, _task, symbols) {
      const { claimNodes } = await team();
      await link.call(
        "claiming the changed symbols",
        (t) => claimNodes(t, symbols.map((c) => c.id), { taskId }),
      );
    },

    async releaseClaims() {
      await link.call(
        "releasing the session's claims",
        (t) => t.store.release(t.who, { all: true }),
      );
    },

    async recordAttempt(s, a) {
      const { recordAttempt } = await memory();
      // Redacted before it is cut: a secret cut in two is no longer recognised.
      const command = redactSecrets(a.command).slice(0, 200);
      const text = a.outcome === "fail"
        ? `\`${command}\` failed${
          a.failed.length > 0 ? `: ${a.failed.slice(0, 5).join(", ")}` : ""
        }`
        : `\`${command}\` passed`;
      await recordAttemptOn(
        "recording the test run",
        s.cwd,
        a,
        a.outcome === "fail" ? "failed" : "passed",
        text,
        (t, j, i) => t.memory().attempt(j, i),
        recordAttempt,
      );
    },

    async describeFailure(s, f, text) {
      const { describeFailure } = await memory();
      await recordAttemptOn(
        "joining the agent's account to its failure",
        s.cwd,
        f,
        "failed",
        text,
        (t, j, i) => t.memory().describe(j, i),
        describeFailure,
      );
    },

    async capturePersonal(s, transcript, turns) {
      const { captureCandidates, queueCandidates } = await memory();
      const config = loadConfig(home.config, env);
      const found = captureCandidates(turns, transcript);
      // A distiller may take seconds: it runs on its own, never in the agent's way.
      if (config.distiller) {
        await distillInBackground(home, transcript, repositoryOf(s.cwd), env, log);
      }
      if (found.length === 0) return;
      const r = queueCandidates(write(), found, {
        project: repositoryOf(s.cwd),
        author: await who(s.cwd),
        autoAccept: config.personalAutoAccept,
      });
      if (r.queued.length + r.repeated.length > 0) {
        log(
          `personal memory: ${r.queued.length} queued (${r.accepted.length} accepted), ${r.repeated.length} seen again`,
        );
      }
    },

    async storeSummary(s, taskId, title, summary, paths) {
      const { remember } = await memory();
      const about = paths.length > 0 ? paths.slice(-10) : [s.cwd];
      const input: RememberInput = {
        kind: "note",
        text: `${title}\n${summary}`,
        about: about.map((p) => relative(s.cwd, p) || "."),
        author: await who(s.cwd),
        taskId,
        cwd: s.cwd,
        keep: true,
      };
      await record(
        "storing the session's summary",
        input,
        (t, j, i) => t.memory().remember(j, i),
        (j, i, touchable) => remember(j, i, touchable),
      );
    },
  };
}

/** How long a configured distiller may take before its proposals are given up. */
const DISTILL_TIMEOUT_MS = 20_000;

/**
 * Runs the user's distiller on a transcript (its path as the last argument)
 * and reads its proposals: one statement per line, optionally preceded by a
 * confidence and a tab, secrets redacted. A distiller that fails or takes
 * longer than {@link DISTILL_TIMEOUT_MS} proposes nothing (logged); never
 * throws.
 */
export async function distill(
  command: string,
  transcript: string,
  log: (message: string) => void,
): Promise<import("../memory/mod.ts").Candidate[]> {
  const name = command.trim().split(/\s+/)[0]!;
  try {
    const child = new Deno.Command("sh", {
      args: ["-c", `${command} "$0"`, transcript],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), DISTILL_TIMEOUT_MS);
    const out = await child.output().finally(() => clearTimeout(timer));
    if (!out.success) {
      log(`personal memory: distiller ${name} exited ${out.code}; its proposals are skipped`);
      return [];
    }
    // Redacted whole, before it is cut into lines and lines to 300 characters: a private
    // key's lines, or a token cut in two, would each match no secret pattern alone.
    return redactSecrets(new TextDecoder().decode(out.stdout)).split("\n").flatMap((line) => {
      const m = /^\s*(?:(0(?:\.\d+)?|1(?:\.0+)?)\t)?(.+?)\s*$/.exec(line);
      if (!m || m[2]!.trim() === "") return [];
      return [{
        text: m[2]!.slice(0, 300),
        kind: "preference" as const,
        confidence: m[1] === undefined ? 0.5 : Number(m[1]),
        source: `distiller ${name}`,
      }];
    });
  } catch (e) {
    log(`personal memory: distiller ${name} could not run: ${(e as Error).message}`);
    return [];
  }
}

/**
 * Starts `heimdall review distill TRANSCRIPT` as a process of its own (not
 * waited for): the configured distiller's proposals join the review queue
 * when it is done. Never throws.
 */
async function distillInBackground(
  home: HomePaths,
  transcript: string,
  project: string,
  env: ConfigEnv,
  log: (message: string) => void,
): Promise<void> {
  try {
    const { selfArgv } = await import("./install/command.ts");
    const argv = selfArgv("main");
    // It reads the config as this hook did (its HEIMDALL_DISTILLER…, not a warm server's):
    // each variable the hook has is passed, each it lacks is emptied, which reads as unset.
    const overrides = Object.fromEntries(
      Object.keys(ENV_OVERRIDES).map((name) => [name, env.get(name) ?? ""]),
    );
    const child = new Deno.Command(argv[0]!, {
      args: [...argv.slice(1), "review", "distill", transcript, "--project", project],
      env: { ...overrides, HEIMDALL_HOME: home.home },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
  } catch (e) {
    log(`personal memory: the distiller could not be started: ${(e as Error).message}`);
  }
}

/**
 * What an attempt of the session is recorded on: the symbols it changed,
 * else its last files; none whose name looks like a secret (memory refuses
 * such an anchor, and the attempt would not be recorded at all).
 */
function attemptAbout(a: Pick<AttemptRecord, "symbols" | "paths">): string[] {
  const clean = (about: string) => sniffSecret(about) === undefined;
  const about = a.symbols.filter((c) => c.change !== "removed").map((c) =>
    `${c.path}:${c.qualname}`
  ).filter(clean);
  return about.length > 0 ? about : a.paths.filter(clean).slice(-5);
}

/**
 * The repository a folder is in: the nearest folder at or above it holding
 * `.git`, else the folder itself. Costs a stat per level.
 */
export function repositoryOf(dir: string): string {
  for (let d = dir;; d = dirname(d)) {
    try {
      Deno.statSync(join(d, ".git"));
      return d;
    } catch { /* not here */ }
    if (dirname(d) === d) return dir;
  }
}
