/**
 * Team commands: claim, release, claims, conflicts, task, who-knows, team.
 * Exit codes: conflicts and who-knows exit 1 when they find nobody.
 */
import { parseFlags, wholeNumber } from "./flags.ts";
import { relative } from "../files/mod.ts";
import { updateConfig } from "../config/mod.ts";
import {
  type Claim,
  claim,
  CLAIM_TTL_RANGE,
  type Conflict,
  conflicts,
  conflictsAt,
  currentActor,
  currentTask,
  DEFAULT_HOPS,
  formatDuration,
  handoff,
  openPgTeamStore,
  openTeam,
  parseDuration,
  parseTeamUrl,
  redactUrl,
  release,
  resume,
  showTask,
  startTask,
  type Task,
  type Team,
  TeamStoreError,
  whoKnows,
  whoKnowsFromCopies,
} from "../team/mod.ts";
import type { Context } from "./context.ts";
import { clipped, UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { ago, json, plural, printable } from "../present/fmt.ts";

const WHO = ["agent", "session"] as const;

export const CLAIM_HELP =
  `heimdall claim SYMBOL|PATH… [--task ID] [--ttl 2h] [--agent NAME] [--session ID] [--json]
  Tell the team you are about to change these symbols (a PATH claims the
  whole file), as $HEIMDALL_AUTHOR (else git user.name, else $USER) with
  $HEIMDALL_AGENT and $HEIMDALL_SESSION, under --task or your current task.
  Claims expire after --ttl (90s, 45m, 2h, 1d); claiming again renews. Prints
  the others' claims that conflict with them.`;

export const RELEASE_HELP =
  `heimdall release SYMBOL|PATH… | --task ID | --all [--agent NAME] [--session ID]
  Release your claims (this developer and session) before they expire.`;

export const CLAIMS_HELP = `heimdall claims [--json]
  Every active claim in the team store: who, on what, for which task, until when.
  Exit 1 when there is none.`;

export const CONFLICTS_HELP = `heimdall conflicts PATH|SYMBOL [--hops 3] [--ack] [--all] [--json]
  Active claims by others on this code, on code it calls and on code that
  calls it, within --hops call hops, each with a shortest call path. --ack
  records the warnings shown so they are not repeated to you; --all shows
  acknowledged ones too. Exit 0 with conflicts, 1 with none.`;

export const TASK_HELP =
  `heimdall task start "TEXT" | handoff ID --to PERSON [--note TEXT] | resume ID [--take]
              | list [--all] | show ID | done ID   [--json]
  Tasks own claims and memories. start makes a task your current one; handoff
  moves it and its active claims to PERSON; resume takes it (yours, or handed
  to you; --take for anyone else's) and shows its claims, notes, attempts and
  decisions; done closes it and releases its claims. list exits 1 when there
  is no task.`;

export const WHO_KNOWS_HELP = `heimdall who-knows SYMBOL|PATH [--hops 1] [--json]
  People ranked by their decisions (3), attempts (2), conventions (2),
  claims (1) and notes (1) on this code, each halved per call hop for its
  callers and callees within --hops. Exit 1 when nobody is known.`;

export const TEAM_HELP =
  `heimdall team connect postgres://USER[:PASSWORD]@HOST[:PORT]/DB | disconnect | status [--json]
  connect: use a shared PostgreSQL for claims, tasks and the memories of
  scope project and team (private ones stay here) (checks it connects,
  creates schema heimdall, stores the URL in config.json, readable by you
  only); every agent then writes there directly, on the server's clock.
  disconnect: back to this machine's journal. status: where claims go, who
  you are, your current task.`;

async function withTeam<T>(
  ctx: Context,
  values: { agent?: string | undefined; session?: string | undefined },
  fn: (team: Team) => Promise<T>,
): Promise<T> {
  const team = await openTeam(ctx, currentActor({ agent: values.agent, session: values.session }));
  try {
    return await fn(team);
  } finally {
    await team.close();
  }
}

function hopsOption(raw: string | undefined, fallback: number): number {
  return wholeNumber(raw, "--hops", 0, 10, fallback);
}

const shown = (path: string) => {
  const cwd = Deno.cwd();
  return path.startsWith(cwd + "/") ? relative(cwd, path) : path;
};
// Every field below may come from another person's machine: printed through
// printable(), so their terminal escapes never reach this terminal raw.
const p = printable;
const who = (c: Pick<Claim, "developer" | "agent">) =>
  `${p(c.developer)}${c.agent ? ` (${p(c.agent)})` : ""}`;
const what = (c: Pick<Claim, "qualname" | "path" | "repo">) =>
  c.qualname === "" ? `${p(c.repo)}/${p(c.path)}` : `${p(c.qualname)} in ${p(c.repo)}/${p(c.path)}`;
const taskLabel = (t: Pick<Task, "id" | "text">) => `${p(t.id)} "${p(t.text)}"`;

/** `heimdall claim`. */
export function claimCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: [...WHO, "task", "ttl"],
    boolean: ["json"],
  });
  if (positionals.length === 0) {
    throw new UsageError("Usage: heimdall claim SYMBOL|PATH… [--ttl 2h]");
  }
  const ttl = values.ttl === undefined ? undefined : parseDuration(values.ttl);
  if (
    values.ttl !== undefined &&
    (ttl === undefined || ttl < CLAIM_TTL_RANGE.min || ttl > CLAIM_TTL_RANGE.max)
  ) {
    throw new UsageError(
      `Invalid --ttl "${values.ttl}": expected a duration from 1s to 7d like 90s, 45m, 2h or 1d (claim again to renew)`,
    );
  }
  return withTeam(ctx, values, async (team) => {
    const result = await claim(team, positionals, {
      ...(ttl === undefined ? {} : { ttlSeconds: ttl }),
      taskId: values.task ?? null,
    });
    const found = (await conflictsAt(team, result.targets.flatMap((t) => t.nodes))).conflicts;
    if (values.json) {
      ctx.out(json({ claims: result.claims, task: result.task, conflicts: found }));
      return EXIT.ok;
    }
    const now = await team.store.now();
    const left = formatDuration(result.claims[0]!.expiresAt - now);
    ctx.out(
      `claimed ${plural(result.claims.length, "symbol")} as ${who(team.who)} for ${left}${
        result.task ? `, task ${taskLabel(result.task)}` : ""
      }:`,
    );
    for (const t of result.targets) {
      ctx.out(
        `  ${t.symbol.kind} ${t.symbol.qualname || "(whole file)"} — ${shown(t.symbol.path)}:${
          t.symbol.line ?? 1
        }`,
      );
    }
    if (found.length > 0) {
      ctx.out(`within ${plural(DEFAULT_HOPS, "call hop")} of what you claimed:`);
      printConflicts(ctx, found, now);
    }
    return EXIT.ok;
  });
}

/** `heimdall release`. */
export function releaseCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: [...WHO, "task"],
    boolean: ["json", "all"],
  });
  const modes = [positionals.length > 0, values.task !== undefined, values.all === true];
  if (modes.filter(Boolean).length !== 1) {
    throw new UsageError("Usage: heimdall release SYMBOL|PATH… | --task ID | --all (exactly one)");
  }
  return withTeam(ctx, values, async (team) => {
    const n = await release(
      team,
      values.all
        ? { all: true }
        : values.task !== undefined
        ? { taskId: values.task }
        : { names: positionals },
    );
    if (values.json) ctx.out(json({ released: n }));
    else ctx.out(`released ${plural(n, "claim")}`);
    return EXIT.ok;
  });
}

/** `heimdall claims`. */
export function claimsCmd(args: string[], ctx: Context): Promise<number> {
  const { values } = parseFlags(args, { string: WHO, boolean: ["json"], positionals: false });
  return withTeam(ctx, values, async (team) => {
    const list = await team.store.activeClaims(null);
    if (values.json) ctx.out(json({ store: team.store.where, claims: list }));
    else {
      const now = await team.store.now();
      if (list.length === 0) ctx.out(`no active claims in ${team.store.where}`);
      for (const c of list) {
        ctx.out(
          `${who(c)}  ${what(c)}  ${formatDuration(c.expiresAt - now)} left${
            c.taskId ? `  task ${p(c.taskId)}${c.taskText ? ` "${p(c.taskText)}"` : ""}` : ""
          }`,
        );
      }
    }
    return list.length > 0 ? EXIT.ok : EXIT.none;
  });
}

function printConflicts(ctx: Context, list: readonly Conflict[], now: number): void {
  for (const c of list) {
    const on = p(c.claim.qualname || c.claim.path);
    const rel = c.relation === "same"
      ? `claimed ${on} itself`
      : c.relation === "callee"
      ? `claimed ${on}, which it calls (${plural(c.hops, "hop")})`
      : `claimed ${on}, which calls it (${plural(c.hops, "hop")})`;
    const task = c.claim.taskText ? ` for "${p(c.claim.taskText)}"` : "";
    const diverged = c.diverged ? "; their copy already differs from yours" : "";
    ctx.out(
      `  ! ${who(c.claim)} ${rel}${task}, ${
        formatDuration(c.claim.expiresAt - now)
      } left${diverged}`,
    );
    if (c.path.length > 1) {
      ctx.out(
        `      ${
          c.path.map((s) => `${p(s.qualname)} (${p(shown(s.path))}:${s.line ?? 1})`).join(" → ")
        }`,
      );
    }
  }
}

/** `heimdall conflicts`. */
export function conflictsCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: [...WHO, "hops"],
    boolean: ["json", "ack", "all"],
  });
  if (positionals.length !== 1) {
    throw new UsageError("Usage: heimdall conflicts PATH|SYMBOL [--hops 3]");
  }
  const hops = hopsOption(values.hops, DEFAULT_HOPS);
  return withTeam(ctx, values, async (team) => {
    const r = await conflicts(team, positionals[0]!, {
      hops,
      includeAcked: values.all ?? false,
      ack: values.ack ?? false,
    });
    const s = r.target.symbol;
    if (values.json) {
      ctx.out(targetJson(r.target, hops, {
        conflicts: r.conflicts,
        acknowledged_hidden: r.acknowledged,
        others_active: r.othersActive,
      }));
      return r.conflicts.length > 0 ? EXIT.ok : EXIT.none;
    }
    const name = s.qualname || shown(s.path);
    if (r.conflicts.length === 0) {
      ctx.out(
        `no claims by others on ${name}, what it calls or what calls it, within ${
          plural(hops, "hop")
        }`,
      );
    } else {
      ctx.out(
        `${plural(r.conflicts.length, "conflict")} on ${s.kind} ${name} — ${shown(s.path)}:${
          s.line ?? 1
        }:`,
      );
      printConflicts(ctx, r.conflicts, await team.store.now());
      if (values.ack) ctx.out(`  (acknowledged: not shown to ${team.who.developer} again)`);
    }
    if (r.acknowledged > 0) {
      ctx.out(
        `  (${plural(r.acknowledged, "acknowledged conflict")} not shown; --all shows them)`,
      );
    }
    return r.conflicts.length > 0 ? EXIT.ok : EXIT.none;
  });
}

const TASK_VERBS = ["start", "handoff", "resume", "show", "list", "done"] as const;

/** The task commands each of task's own flags belongs to. */
const TASK_FLAG_VERBS: readonly (readonly ["to" | "note" | "take" | "all", readonly string[]])[] = [
  ["to", ["handoff"]],
  ["note", ["handoff"]],
  ["take", ["resume"]],
  ["all", ["list"]],
];

/** `heimdall task`. */
export function taskCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: [...WHO, "to", "note"],
    boolean: ["json", "take", "all"],
  });
  const [given = "list", ...rest] = positionals;
  if (!(TASK_VERBS as readonly string[]).includes(given)) {
    throw new UsageError(
      `Unknown task command "${given}": expected ${TASK_VERBS.join(", ")}`,
    );
  }
  const verb = given as (typeof TASK_VERBS)[number];
  // `task start "x" --to bob` started the task as yours, exit 0, the hand-off never made.
  for (const [flag, verbs] of TASK_FLAG_VERBS) {
    if (values[flag] !== undefined && !verbs.includes(verb)) {
      throw new UsageError(
        `--${flag} applies to task ${
          verbs.join(" or ")
        } only (not ${verb}); \`heimdall help task\` shows each command's options`,
      );
    }
  }
  const one = (usage: string) => {
    if (rest.length !== 1) throw new UsageError(`Usage: heimdall task ${usage}`);
    return rest[0]!;
  };
  return withTeam(ctx, values, async (team) => {
    switch (verb) {
      case "start": {
        const text = rest.join(" ").trim();
        if (text === "") throw new UsageError('Usage: heimdall task start "what you are doing"');
        const task = await startTask(team, text);
        if (values.json) ctx.out(json(task));
        else ctx.out(`started task ${taskLabel(task)}; your claims now belong to it`);
        return EXIT.ok;
      }
      case "handoff": {
        const id = one("handoff ID --to PERSON [--note TEXT]");
        if (!values.to) throw new UsageError(`Usage: heimdall task handoff ${id} --to PERSON`);
        const moved = await handoff(team, id, values.to, values.note ?? null);
        if (values.json) ctx.out(json(moved));
        else {
          ctx.out(
            `handed task ${taskLabel(moved.task)} to ${p(moved.task.owner)} with ${
              plural(moved.claimsMoved, "active claim")
            }; they pick it up with \`heimdall task resume ${id}\``,
          );
        }
        return EXIT.ok;
      }
      case "resume":
      case "show": {
        const id = one(`${verb} ID`);
        const r = verb === "resume"
          ? await resume(team, id, { take: values.take ?? false })
          : await showTask(team, id);
        if (!r) {
          throw new UsageError(`No task "${clipped(id)}"; \`heimdall task list\` shows the tasks`);
        }
        if (values.json) {
          ctx.out(json(r));
          return EXIT.ok;
        }
        const now = await team.store.now();
        ctx.out(`task ${taskLabel(r.task)} — ${r.task.state}, owner ${p(r.task.owner)}`);
        if ("claimsMoved" in r) {
          ctx.out(`  now yours, with ${plural(r.claimsMoved as number, "active claim")}`);
        }
        for (const e of r.events) {
          const to = e.to ? ` → ${p(e.to)}` : "";
          ctx.out(
            `  ${ago(e.at, now).padEnd(8)} ${e.kind}${to} by ${p(e.actor)}${
              e.note ? `: ${p(e.note)}` : ""
            }`,
          );
        }
        for (const c of r.claims) {
          const active = c.releasedAt === null && c.expiresAt > now;
          ctx.out(
            `  claim  ${what(c)} — ${
              active
                ? `${formatDuration(c.expiresAt - now)} left`
                : c.releasedAt
                ? "released"
                : "expired"
            }`,
          );
        }
        for (const m of r.memories) {
          const outcome = m.outcome ? ` ${m.outcome}${m.count > 1 ? ` ×${m.count}` : ""}` : "";
          ctx.out(`  ${m.kind}${outcome} by ${p(m.author)}: ${p(m.text)}`);
        }
        return EXIT.ok;
      }
      case "done": {
        const id = one("done ID");
        const moved = await team.store.finish(team.who, id);
        if (values.json) ctx.out(json(moved));
        else {ctx.out(
            `task ${taskLabel(moved.task)} done; released ${plural(moved.claimsMoved, "claim")}`,
          );}
        return EXIT.ok;
      }
      case "list": {
        const tasks = await team.store.listTasks({ includeDone: values.all ?? false });
        const current = await currentTask(team);
        if (values.json) ctx.out(json({ current: current?.id ?? null, tasks }));
        else {
          const now = await team.store.now();
          if (tasks.length === 0) ctx.out('no tasks; `heimdall task start "TEXT"` starts one');
          for (const t of tasks) {
            const mark = t.id === current?.id ? "*" : " ";
            ctx.out(
              `${mark} ${p(t.id)}  ${t.state.padEnd(10)} ${p(t.owner).padEnd(12)} ${
                ago(t.updatedAt, now).padEnd(8)
              } ${p(t.text)}`,
            );
          }
        }
        return tasks.length > 0 ? EXIT.ok : EXIT.none;
      }
    }
  });
}

/**
 * The `--json` output of a command about one target within call hops
 * (conflicts, who-knows): `target` (the argument and the symbol it named)
 * and `hops` first, then the command's own fields.
 */
function targetJson(
  t: {
    arg: string;
    symbol: { kind: string; qualname: string; path: string; line: number | null };
  },
  hops: number,
  fields: Record<string, unknown>,
): string {
  const s = t.symbol;
  const target = { arg: t.arg, kind: s.kind, qualname: s.qualname, path: s.path, line: s.line };
  return json({ target, hops, ...fields });
}

/** `heimdall who-knows`. */
export async function whoKnowsCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { string: [...WHO, "hops"], boolean: ["json"] });
  if (positionals.length !== 1) {
    throw new UsageError("Usage: heimdall who-knows SYMBOL|PATH [--hops 1]");
  }
  const hops = hopsOption(values.hops, 1);
  let r;
  try {
    r = await withTeam(ctx, values, (team) => whoKnows(team, positionals[0]!, { hops }));
  } catch (e) {
    if (!(e instanceof TeamStoreError)) throw e;
    // A read: the memories copied here still say who knows the code.
    ctx.err(
      `heimdall who-knows: ${e.message}; ranking by this machine's copy of the team's memories as of its last sync, without claims`,
    );
    r = await whoKnowsFromCopies(ctx, positionals[0]!, { hops });
  }
  const s = r.target.symbol;
  if (values.json) {
    ctx.out(targetJson(r.target, hops, { symbols: r.symbols, experts: r.experts }));
  } else if (r.experts.length === 0) {
    ctx.out(
      `nobody has claimed, tried or decided anything on ${s.qualname || shown(s.path)} or its ${
        plural(r.symbols - 1, "neighbour")
      }`,
    );
  } else {
    for (const [i, x] of r.experts.entries()) {
      const counts = [
        x.decisions && plural(x.decisions, "decision"),
        x.attempts && plural(x.attempts, "attempt"),
        x.claims && plural(x.claims, "claim"),
        // A convention weighs as an attempt does: never counted as a note.
        x.conventions && plural(x.conventions, "convention"),
        x.other && plural(x.other, "note or fact", "notes or facts"),
      ].filter(Boolean).join(", ");
      ctx.out(
        `${i + 1}. ${p(x.person)}  ${x.score}  ${counts}; on ${x.about.map(p).join(", ")}`,
      );
    }
  }
  return r.experts.length > 0 ? EXIT.ok : EXIT.none;
}

/** `heimdall team connect|disconnect|status`. */
export async function teamCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { string: WHO, boolean: ["json"] });
  const [verb = "status", ...rest] = positionals;
  if (verb === "connect") {
    if (rest.length !== 1) {
      throw new UsageError("Usage: heimdall team connect postgres://USER@HOST[:PORT]/DB");
    }
    const url = parseTeamUrl(rest[0]!);
    const store = await openPgTeamStore(url);
    let clock: number;
    try {
      clock = await store.now();
    } finally {
      await store.close();
    }
    await updateConfig(ctx.home.config, (c) => ({ ...c, teamUrl: url }));
    // The URL may hold a password: the config is for this user's eyes only.
    Deno.chmodSync(ctx.home.config, 0o600);
    const skew = Math.round((Date.now() - clock) / 1000);
    // HEIMDALL_TEAM_URL beats config.json: the commands would not go where this says.
    const fromEnv = Deno.env.get("HEIMDALL_TEAM_URL");
    const overridden = fromEnv && fromEnv !== url ? redactUrl(fromEnv) : null;
    if (values.json) {
      ctx.out(
        json({
          connected: redactUrl(url),
          schema_version: store.schemaVersion,
          clock_skew_s: skew,
          still_connected: overridden,
        }),
      );
    } else if (overridden) {
      ctx.out(
        `saved ${
          redactUrl(url)
        } (schema heimdall v${store.schemaVersion}) in config.json, but the commands still use ${overridden} from HEIMDALL_TEAM_URL; unset it (\`unset HEIMDALL_TEAM_URL\`, or your shell profile or harness settings) to use this one`,
      );
    } else {
      ctx.out(
        `connected to ${
          redactUrl(url)
        } (schema heimdall v${store.schemaVersion}); claims, tasks and shared memories now go there, on the server's clock${
          Math.abs(skew) >= 2 ? ` (this machine's clock is ${skew}s off it)` : ""
        }`,
      );
    }
    return EXIT.ok;
  }
  if (verb === "disconnect") {
    let was: string | null = null;
    await updateConfig(ctx.home.config, (c) => {
      was = c.teamUrl;
      return { ...c, teamUrl: null };
    });
    // HEIMDALL_TEAM_URL beats config.json: the command would stay connected.
    const fromEnv = Deno.env.get("HEIMDALL_TEAM_URL");
    if (values.json) {
      ctx.out(json({
        disconnected: was ? redactUrl(was) : null,
        still_connected: fromEnv ? redactUrl(fromEnv) : null,
      }));
    } else if (fromEnv) {
      ctx.out(
        `${was ? `removed ${redactUrl(was)} from config.json, but ` : ""}still connected to ${
          redactUrl(fromEnv)
        }: the connection comes from HEIMDALL_TEAM_URL; unset it there (\`unset HEIMDALL_TEAM_URL\`, or your shell profile or harness settings)`,
      );
    } else {
      ctx.out(
        was
          ? `disconnected from ${
            redactUrl(was)
          }; claims, tasks and memories go to this machine's journal (which keeps its copies of the team's memories)`
          : "not connected; claims and tasks already go to this machine's journal",
      );
    }
    return EXIT.ok;
  }
  if (verb !== "status") {
    throw new UsageError(
      `Unknown team command "${verb}": expected connect, disconnect or status`,
    );
  }
  return await withTeam(ctx, values, async (team) => {
    const [now, claims, tasks, current] = await Promise.all([
      team.store.now(),
      team.store.activeClaims(null),
      team.store.listTasks({ includeDone: false }),
      currentTask(team),
    ]);
    const status = {
      store: team.store.kind,
      where: team.store.where,
      you: team.who,
      current_task: current,
      active_claims: claims.length,
      open_tasks: tasks.length,
      clock_skew_s: Math.round((Date.now() - now) / 1000),
    };
    if (values.json) ctx.out(json(status));
    else {
      ctx.out(
        `store    ${
          status.store === "postgres" ? "shared PostgreSQL" : "this machine's journal"
        } ${status.where}`,
      );
      ctx.out(
        `you      ${who(team.who)}${team.who.session ? `, session ${team.who.session}` : ""}`,
      );
      ctx.out(`task     ${current ? taskLabel(current) : "none (`heimdall task start`)"}`);
      ctx.out(
        `claims   ${plural(claims.length, "active claim")}, ${plural(tasks.length, "open task")}`,
      );
    }
    return EXIT.ok;
  });
}
