/** `heimdall remember | attempt | why | history | forget`: memory attached to code. */
import { parseFlags, wholeNumber } from "./flags.ts";
import { stdinText } from "./stdin_text.ts";
import {
  anchorLabel,
  cleanAuthor,
  defaultAuthor,
  formatInstant,
  history,
  KINDS,
  MAX_TEXT,
  type Memory,
  type MemoryKind,
  parseInstant,
  parseKind,
  standingAt,
  why,
  type WhyItem,
  type WhyTarget,
} from "../memory/mod.ts";
import { exists } from "../files/mod.ts";
import { Journal } from "../store/mod.ts";
import { SharedMemory, TeamStoreError } from "../team/mod.ts";
import type { Context } from "./context.ts";
import { UsageError } from "../errors/mod.ts";
import { EXIT } from "./exit_codes.ts";
import { json, plural, printable } from "../present/fmt.ts";

/**
 * Opens the journal for memory, read-write (memory writes and lazy
 * re-anchoring), and the team store when one is connected: shared writes go
 * there, and reads pull the team's memories first. A store that cannot be
 * reached: reads go on with a warning, shared writes exit 3.
 */
/** The commands that only read: they answer from this journal's copies when the store is away. */
const READS = new Set(["why", "history"]);
/** The writes that take --scope: a private one never needs the store. */
const SCOPED_WRITES = new Set(["remember", "attempt"]);

async function withMemory(
  ctx: Context,
  name: string,
  create: boolean,
  fn: (j: Journal, shared: SharedMemory) => number | Promise<number>,
): Promise<number> {
  if (!create) {
    try {
      Deno.statSync(ctx.home.journal);
    } catch {
      // Fails with the usual "nothing is indexed yet".
      Journal.open(ctx.home.journal, { readOnly: true }).close();
    }
  }
  const j = Journal.open(ctx.home.journal);
  const shared = await SharedMemory.open(ctx);
  try {
    // A write that needs the store fails with the reason itself: told once.
    const warning = READS.has(name) ? shared.warning() : null;
    if (warning) ctx.err(`heimdall ${name}: ${warning}`);
    return await fn(j, shared);
  } catch (e) {
    // A shared write the store did not take stored nothing: say how to keep it here.
    if (e instanceof TeamStoreError && SCOPED_WRITES.has(name)) {
      throw new TeamStoreError(
        `${e.message}; to keep it on this machine only, run it again with --scope private`,
      );
    }
    throw e;
  } finally {
    await shared.close();
    j.close();
  }
}

function instant(
  text: string | undefined,
  option: string,
  edge: "start" | "end",
): number | undefined {
  if (text === undefined) return undefined;
  try {
    return parseInstant(text, option, edge);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

async function textOf(positionals: string[], what: string): Promise<string> {
  if (positionals.length === 1 && positionals[0] === "-") {
    return await stdinText("TEXT");
  }
  if (positionals.length === 0) {
    throw new UsageError(`Missing TEXT: say ${what} (quote it, or pass - to read it from stdin)`);
  }
  return positionals.join(" ");
}

/** Paths under the current folder, relative (anywhere in `text`). */
const show = (text: string) => text.replaceAll(Deno.cwd() + "/", "");

/**
 * Prints one line for people: control characters in what memory holds
 * (text, names, paths; an escape sequence that would drive the terminal)
 * become visible escapes ({@link printable}). JSON output is escaped by JSON.
 */
const say = (ctx: Context, line: string) => ctx.out(printable(line));

function about(m: Memory): string {
  return m.anchors.map((a) => {
    const label = show(anchorLabel(a));
    return a.state === "active" ? label : `${label} (${a.state})`;
  }).join(", ");
}

export const REMEMBER_HELP =
  `heimdall remember --kind decision|convention|note|fact|preference|page --about SYMBOL|PATH…
    TEXT|- [--json] [--scope private|project|team] [--valid-from DATE] [--valid-to DATE]
    [--task ID] [--supersedes ID…] [--keep] [--author NAME]
  Records what code cannot say, attached to symbols (path:name, Class.method,
  name), files or folders. A preference is one person's rule or habit (what
  \`heimdall review\` accepts), a page a project's knowledge page (what
  \`heimdall reflect\` writes). A decision, convention or fact supersedes the
  current one of its kind on the same anchors (--keep adds alongside instead;
  so does one whose --valid-from/--valid-to do not hold now, unless
  --supersedes names what it replaces); the old one stays as history. Secrets in TEXT are redacted. Author:
  $HEIMDALL_AUTHOR, else git user.name, else $USER.`;

/** `heimdall remember`. */
export async function rememberCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["kind", "scope", "valid-from", "valid-to", "task", "author"],
    multiple: ["about", "supersedes"],
    boolean: ["keep", "json"],
  });
  // An attempt has an outcome and its own command; the store says so if one is asked for here.
  const kinds = KINDS.filter((k) => k !== "attempt").join(", ");
  if (values.kind === undefined) {
    // `heimdall remember decision …`: the kind typed as a word, not as the flag.
    const typed = positionals.length > 1 && KINDS.includes(positionals[0] as never)
      ? `; to record a ${positionals[0]}, pass it as the flag: \`heimdall remember --kind ${
        positionals[0]
      } --about …\` with the text after it`
      : "";
    throw new UsageError(`Missing --kind: one of ${kinds}${typed}`);
  }
  try {
    parseKind(values.kind);
  } catch {
    throw new UsageError(`Unknown kind "${values.kind}": expected one of ${kinds}`);
  }
  const validFrom = instant(values["valid-from"], "--valid-from", "start");
  const validTo = instant(values["valid-to"], "--valid-to", "start");
  const text = await textOf(positionals, "what was decided or noticed");
  const author = values.author ?? defaultAuthor();
  return await withMemory(ctx, "remember", true, async (j, shared) => {
    const r = await shared.remember(j, {
      kind: values.kind!,
      text,
      about: values.about ?? [],
      author,
      ...(values.scope !== undefined ? { scope: values.scope } : {}),
      ...(validFrom !== undefined ? { validFrom } : {}),
      ...(validTo !== undefined ? { validTo } : {}),
      taskId: values.task?.trim() ?? null,
      supersedes: values.supersedes ?? [],
      keep: values.keep ?? false,
    });
    if (values.json) ctx.out(json(r));
    else {
      say(
        ctx,
        `remembered ${r.memory.id}: ${r.memory.kind} on ${about(r.memory)}${
          r.superseded.length > 0 ? `; supersedes ${r.superseded.join(", ")}` : ""
        }`,
      );
    }
    return EXIT.ok;
  });
}

export const ATTEMPT_HELP =
  `heimdall attempt --about SYMBOL|PATH… --failed|--passed [--tests T1,T2] TEXT|- [--json]
    [--fix REF] [--task ID] [--scope private|project|team] [--author NAME]
  Records what was tried and how it went. A failure repeating an open one on
  the same code (same failing tests, or near-identical wording) counts it
  again instead of adding a row. A pass resolves the open failures on its
  code (with --tests, those whose failing tests it names) and links itself,
  and --fix (a commit, a URL), as their fix.`;

/** `heimdall attempt`. */
export async function attemptCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["fix", "task", "scope", "author"],
    multiple: ["about", "tests"],
    boolean: ["failed", "passed", "json"],
  });
  if (values.failed === values.passed) {
    // `heimdall attempt failed …`: the outcome typed as a word, not as the flag.
    const typed = !values.failed && positionals.length > 1 &&
        (positionals[0] === "failed" || positionals[0] === "passed")
      ? ` (the word "${positionals[0]}" before the text is read as the text; write --${
        positionals[0]
      })`
      : "";
    throw new UsageError(`Say how it went: pass exactly one of --failed or --passed${typed}`);
  }
  const text = await textOf(positionals, "what was tried");
  const author = values.author ?? defaultAuthor();
  const tests = (values.tests ?? []).flatMap((t) => t.split(","));
  return await withMemory(ctx, "attempt", true, async (j, shared) => {
    const r = await shared.attempt(j, {
      about: values.about ?? [],
      outcome: values.failed ? "failed" : "passed",
      text,
      author,
      tests,
      ...(values.fix !== undefined ? { fix: values.fix } : {}),
      ...(values.scope !== undefined ? { scope: values.scope } : {}),
      taskId: values.task?.trim() ?? null,
    });
    if (values.json) ctx.out(json(r));
    else if (r.repeated) {
      say(
        ctx,
        `attempt ${r.memory.id} failed again on ${about(r.memory)}: ${
          plural(r.memory.count, "time")
        } now (${
          r.matchedBy === "tests"
            ? "same failing tests"
            : `same wording, similarity ${r.similarity!.toFixed(2)}`
        }${
          r.testsLeftOut
            ? `; ${
              plural(r.testsLeftOut, "older failing test")
            } left out to keep its list within ${MAX_TEXT} characters`
            : ""
        })`,
      );
    } else {
      say(
        ctx,
        `attempt ${r.memory.id} ${r.memory.outcome} on ${about(r.memory)}${
          r.resolved.length > 0 ? `; resolves ${r.resolved.join(", ")}` : ""
        }`,
      );
    }
    return EXIT.ok;
  });
}

function itemLines(m: WhyItem | (Memory & { via: string | null }), standing: string): string[] {
  const head: string[] = [m.kind];
  if (m.outcome) head.push(m.outcome + (m.count > 1 ? ` ×${m.count}` : ""));
  head.push(m.id, formatInstant(m.recorded_at), m.author);
  if (m.scope !== "project") head.push(m.scope);
  const notes: string[] = [];
  if (m.via) notes.push(`via ${m.via}`);
  if (standing === "superseded") {
    notes.push(`superseded ${formatInstant(m.superseded_at)} by ${m.superseded_by}`);
  }
  if (standing === "forgotten") {
    notes.push(`forgotten ${formatInstant(m.forgotten_at)} by ${m.forgotten_by}`);
  }
  if (m.status === "resolved") {
    notes.push(`resolved ${formatInstant(m.resolved_at)} by ${m.resolved_by}`);
  }
  if (standing === "expired") notes.push(`valid until ${formatInstant(m.valid_to)}`);
  if (standing === "upcoming") notes.push(`valid from ${formatInstant(m.valid_from)}`);
  const tests = JSON.parse(m.tests) as string[];
  if (tests.length > 0) notes.push(`tests ${tests.join(", ")}`);
  if (m.fix) notes.push(`fix ${m.fix}`);
  if (m.count > 1) notes.push(`last ${formatInstant(m.last_seen_at)}`);
  if (m.task_id) notes.push(`task ${m.task_id}`);
  const lines = [`  ${head.join("  ")}${notes.length > 0 ? `  (${notes.join("; ")})` : ""}`];
  // One line each: a newline in the text starts a line, any other control character shows.
  for (const l of m.text.split("\n")) lines.push(`      ${l}`);
  const moved = m.anchors.filter((a) => a.state !== "active");
  if (moved.length > 0) lines.push(`      about ${about(m)}`);
  return lines;
}

function targetLine(t: WhyTarget): string {
  if (t.type === "symbol") return `${t.kind} ${t.symbol} — ${show(t.path)}:${t.line ?? 1}`;
  if (t.type === "gone") {
    if (t.moved !== null) return `${t.label} — moved: its memories follow ${show(t.moved)}:`;
    // Found by the text typed, anchored to a place that is there: typed from another folder.
    return t.path !== null && exists(t.path)
      ? `${t.label} — nothing by that name here (${Deno.cwd()}); memories typed "${t.label}" are anchored to ${
        show(t.path)
      }:`
      : `${t.label} — no longer in the index; memories anchored to it:`;
  }
  return `${t.type} ${show(t.path)}`;
}

export const WHY_HELP = `heimdall why SYMBOL|PATH [--as-of DATE] [--json] [--author NAME]
  What memory says about a symbol, file or folder: what holds now first (most
  specific anchor first: the symbol, what encloses it, its file, its folders),
  then the history (superseded, forgotten, resolved, expired) with who and
  when. --as-of answers as memory stood then (DATE: 2025-01-31, the end of
  that day UTC, or 2025-01-31T14:00:00Z, the end of that second). Works for
  code that is gone, through its orphaned memories. Exit 1 when no memory is
  about it.`;

/** `heimdall why`. */
export async function whyCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["as-of", "author"],
    boolean: ["json"],
  });
  if (positionals.length !== 1) {
    throw new UsageError("Expected exactly one SYMBOL (name, Class.method or path:name) or PATH");
  }
  const asOf = instant(values["as-of"], "--as-of", "end");
  const viewer = (values.author ?? defaultAuthor()).trim(); // as authors are stored
  return await withMemory(ctx, "why", false, async (j, shared) => {
    await shared.syncForRead(j, (m) => ctx.err(`heimdall why: ${m}`));
    const r = why(j, positionals[0]!, { asOf: asOf ?? null, viewer });
    if (values.json) ctx.out(json(r));
    else {
      say(
        ctx,
        targetLine(r.target) + (r.as_of !== null ? `  (as of ${formatInstant(r.as_of)})` : ""),
      );
      if (r.current.length + r.history.length === 0) ctx.out("  no memory about it");
      if (r.current.length > 0) ctx.out("current");
      for (const m of r.current) for (const l of itemLines(m, m.standing)) say(ctx, l);
      if (r.history.length > 0) ctx.out("history");
      for (const m of r.history) for (const l of itemLines(m, m.standing)) say(ctx, l);
    }
    return r.current.length + r.history.length > 0 ? EXIT.ok : EXIT.none;
  });
}

export const HISTORY_HELP =
  `heimdall history [SYMBOL|PATH] [--kind K] [--author NAME] [--limit N] [--json]
  Every memory about SYMBOL or PATH (or the newest of all), superseded and
  forgotten ones included, and the timeline of what happened to them:
  recorded, repeated, superseded, resolved, forgotten, moved, orphaned.`;

/** `heimdall history`. */
export async function historyCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, {
    string: ["kind", "author", "limit"],
    boolean: ["json"],
  });
  if (positionals.length > 1) throw new UsageError("Expected at most one SYMBOL or PATH");
  let kind: MemoryKind | undefined;
  if (values.kind !== undefined) {
    try {
      kind = parseKind(values.kind);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const limit = wholeNumber(values.limit, "--limit", 1, 10_000, 50);
  // As authors are stored (trimmed); an empty one matched nobody: "no memory".
  const author = values.author?.trim();
  if (author === "") {
    throw new UsageError(
      `Empty --author ${
        JSON.stringify(values.author)
      }: it names nobody (an unset shell variable?); leave --author out for every author`,
    );
  }
  const viewer = defaultAuthor();
  return await withMemory(ctx, "history", false, async (j, shared) => {
    await shared.syncForRead(j, (m) => ctx.err(`heimdall history: ${m}`));
    const r = history(j, positionals[0] ?? null, {
      viewer,
      limit,
      ...(kind ? { kind } : {}),
      ...(author !== undefined ? { author } : {}),
    });
    if (values.json) ctx.out(json(r));
    else {
      if (r.target) say(ctx, targetLine(r.target));
      for (const e of r.events) {
        say(
          ctx,
          `  ${formatInstant(e.at)}  ${e.event.padEnd(10)} ${e.kind} ${e.memory_id}  ${
            show(e.detail)
          }`,
        );
      }
      if (r.memories.length > 0) ctx.out("memories");
      const now = Date.now();
      for (const m of r.memories) {
        // As why says it: a fact whose valid time ended, or has not begun, says so.
        for (const l of itemLines(m, standingAt(m, now).standing)) say(ctx, l);
      }
      if (r.memories.length === 0) ctx.out("no memory");
    }
    return r.memories.length > 0 ? EXIT.ok : EXIT.none;
  });
}

export const FORGET_HELP = `heimdall forget ID [--json] [--author NAME]
  Marks a memory forgotten (when, by whom: --author, else $HEIMDALL_AUTHOR,
  git user.name or $USER): it leaves \`why\`'s current answer and search, and
  stays in history. ID may be a unique prefix (4+ characters).`;

/** `heimdall forget`. */
export async function forgetCmd(args: string[], ctx: Context): Promise<number> {
  const { values, positionals } = parseFlags(args, { string: ["author"], boolean: ["json"] });
  if (positionals.length !== 1) throw new UsageError("Expected exactly one memory ID");
  // As stored, before it reaches a team store too.
  const author = cleanAuthor(values.author ?? defaultAuthor());
  return await withMemory(ctx, "forget", false, async (j, shared) => {
    const m = await shared.forget(j, positionals[0]!, { author });
    if (values.json) ctx.out(json(m));
    else say(ctx, `forgot ${m.id} (${m.kind} on ${about(m)}); \`heimdall history\` still shows it`);
    return EXIT.ok;
  });
}
