/**
 * Merging Heimdall's entries into harness JSON configs, and taking exactly
 * them out again (pure: objects in, objects out).
 *
 * Heimdall's hook entries are recognised by their command (`… heimdall hook
 * --harness NAME` or `… main.ts hook --harness NAME`); its MCP server by the
 * key `heimdall` with a command that is Heimdall's. Everything else in a file
 * is left as it was, in its place.
 */
import { ConfigEditError } from "./json_file.ts";

/** One hook Heimdall wants: an event, an optional tool matcher, and the entry to register. */
export interface HookWant {
  event: string;
  matcher: string | null;
  /** The handler (Claude-shaped files) or the whole entry (flat files). */
  entry: Record<string, unknown>;
}

type Obj = Record<string, unknown>;

/**
 * Which containers (`hooks`, `hooks.SessionStart`, `mcpServers`…) Heimdall
 * created, so that an uninstall removes them when it empties them and keeps
 * the ones the person had (even if empty). `removable` null: unknown (no
 * record of the install), on an install: empty containers are kept.
 * `"emptied"`: an uninstall with no record (files committed by a teammate,
 * another HEIMDALL_HOME): a container that held only Heimdall's entries goes
 * with them, one that was empty already stays.
 */
export interface Containers {
  created: Set<string>;
  removable: ReadonlySet<string> | "emptied" | null;
}

/** A fresh record for one file. */
export function containers(removable: ReadonlySet<string> | "emptied" | null = null): Containers {
  return { created: new Set(), removable };
}

function mayRemove(c: Containers, name: string): boolean {
  return c.removable === "emptied" || (c.removable !== null && c.removable.has(name));
}

function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Obj : null;
}

/** Recognises Heimdall's hook command for one harness. */
export function hookMarker(harness: string): RegExp {
  return new RegExp(
    `(?:heimdall|main\\.ts)['"]?\\s+hook\\s+--harness\\s+${
      harness.replace(/[-]/g, "\\-")
    }(?:\\s|$)`,
  );
}

function isOurs(entry: unknown, marker: RegExp): boolean {
  const o = obj(entry);
  return o !== null && typeof o.command === "string" && marker.test(o.command);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Sets Heimdall's hooks in a Claude-shaped `hooks` object
 * (`{Event: [{matcher?, hooks: [handler…]}]}`: Claude Code, Codex, Gemini).
 * An identical handler already in place is kept where it is (so a second run
 * changes nothing); other Heimdall handlers are dropped; missing ones are
 * added as a new group at the end. Groups and events left empty by removing
 * Heimdall's handlers are removed; with `wants` empty this uninstalls.
 */
export function setGroupedHooks(
  root: Obj,
  wants: HookWant[],
  marker: RegExp,
  c: Containers = containers(),
): void {
  setHooks(root, wants, marker, c, (groups, inPlace) => {
    const keptGroups: unknown[] = [];
    for (const g of groups) {
      const group = obj(g);
      if (!group || !Array.isArray(group.hooks)) {
        keptGroups.push(g);
        continue;
      }
      const matcher = typeof group.matcher === "string" && group.matcher !== ""
        ? group.matcher
        : null;
      const had = group.hooks.length;
      const handlers = group.hooks.filter((h) => inPlace(h, matcher));
      if (handlers.length === 0 && had > 0) continue;
      keptGroups.push(handlers.length === had ? g : { ...group, hooks: handlers });
    }
    return keptGroups;
  }, (w) => w.matcher === null ? { hooks: [w.entry] } : { matcher: w.matcher, hooks: [w.entry] });
}

/**
 * Sets Heimdall's hooks in a flat `hooks` object (`{event: [entry…]}`:
 * Cursor, Windsurf), with the same keep / drop / add rules as
 * {@link setGroupedHooks}.
 */
export function setFlatHooks(
  root: Obj,
  wants: HookWant[],
  marker: RegExp,
  c: Containers = containers(),
): void {
  setHooks(
    root,
    wants,
    marker,
    c,
    (entries, inPlace) => entries.filter((e) => inPlace(e)),
    (w) => w.entry,
  );
}

/**
 * The keep / drop / add rules of both layouts: `keep` filters each event's
 * list with `inPlace` (true for an entry that is not Heimdall's, or that is
 * a want already in place, at `matcher` when given; that want is then no
 * longer missing); an event its list left empty is removed when Heimdall may
 * remove it; the wants not in place are appended as `entry` makes them.
 */
function setHooks(
  root: Obj,
  wants: HookWant[],
  marker: RegExp,
  c: Containers,
  keep: (list: unknown[], inPlace: (e: unknown, matcher?: string | null) => boolean) => unknown[],
  entry: (w: HookWant) => unknown,
): void {
  const hooks = hooksOf(root);
  for (const w of wants) {
    // Replacing it would lose what the person wrote there: theirs to fix.
    if (hooks[w.event] !== undefined && !Array.isArray(hooks[w.event])) {
      throw new ConfigEditError(
        "",
        `"hooks.${w.event}" in "" is not a list; make it a list of hooks (or move the file aside) and run init again`,
      );
    }
  }
  const placed = new Set<HookWant>();
  const events = Object.keys(hooks).length;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const kept = keep(list, (e, matcher) => {
      if (!isOurs(e, marker)) return true;
      const want = wants.find((w) =>
        !placed.has(w) && w.event === event && (matcher === undefined || w.matcher === matcher) &&
        same(w.entry, e)
      );
      if (want) placed.add(want);
      return want !== undefined;
    });
    if (kept.length === 0 && list.length > 0 && mayRemove(c, `hooks.${event}`)) {
      delete hooks[event];
    } else hooks[event] = kept;
  }
  addMissing(root, hooks, wants, placed, c, entry, events > 0);
}

/** The `hooks` object of `root`, a new one when it has none; throws when `hooks` is not an object. */
function hooksOf(root: Obj): Obj {
  const hooks = obj(root.hooks);
  if (root.hooks !== undefined && hooks === null) {
    throw new ConfigEditError(
      "",
      `"hooks" in "" is not an object; make it an object of hook lists (or move the file aside) and run init again`,
    );
  }
  return hooks ?? {};
}

/** Appends the wants not already in place, noting the containers created; drops an emptied `hooks`. */
function addMissing(
  root: Obj,
  hooks: Obj,
  wants: HookWant[],
  placed: Set<HookWant>,
  c: Containers,
  entry: (w: HookWant) => unknown,
  hadEvents: boolean,
): void {
  const had = root.hooks !== undefined;
  for (const w of wants) {
    if (placed.has(w)) continue;
    if (!Array.isArray(hooks[w.event])) c.created.add(`hooks.${w.event}`);
    const list = Array.isArray(hooks[w.event]) ? hooks[w.event] as unknown[] : [];
    list.push(entry(w));
    hooks[w.event] = list;
  }
  if (!had && Object.keys(hooks).length > 0) c.created.add("hooks");
  const emptied = hadEvents || c.removable !== "emptied";
  if (Object.keys(hooks).length === 0 && (!had || (emptied && mayRemove(c, "hooks")))) {
    delete root.hooks;
  } else root.hooks = hooks;
}

/** True when an MCP server entry runs Heimdall's MCP server. */
export function isOurServer(entry: unknown): boolean {
  const o = obj(entry);
  if (!o) return false;
  const words = [o.command, ...(Array.isArray(o.args) ? o.args : [])].filter((w) =>
    typeof w === "string"
  ) as string[];
  return words.some((w) => /(?:^|\/)heimdall(?:\.exe)?$|main\.ts$/.test(w)) &&
    words.includes("mcp");
}

/**
 * Sets (`entry` given) or removes (`entry` null) the `heimdall` server under
 * `key` (`mcpServers`). Refuses to replace a `heimdall` server that is not
 * Heimdall's.
 */
export function setMcpServer(
  root: Obj,
  key: string,
  entry: Obj | null,
  file: string,
  c: Containers = containers(),
): void {
  const servers = obj(root[key]);
  if (root[key] !== undefined && servers === null) {
    throw new ConfigEditError(file, `"${key}" in "${file}" is not an object; fix it first`);
  }
  const existing = servers?.heimdall;
  if (existing !== undefined && !isOurServer(existing)) {
    throw new ConfigEditError(
      file,
      `"${file}" already has an MCP server named "heimdall" that does not run Heimdall; rename or remove it first`,
    );
  }
  if (entry === null) {
    if (servers && existing !== undefined) {
      delete servers.heimdall;
      if (Object.keys(servers).length === 0 && mayRemove(c, key)) delete root[key];
    }
    return;
  }
  if (existing !== undefined && same(existing, entry)) return;
  if (servers === null) c.created.add(key);
  root[key] = { ...(servers ?? {}), heimdall: entry };
}
