/**
 * Verification at query time: each candidate is checked against the live
 * filesystem (stat for every hit, content hash for the first ones), its own
 * text is read back from disk to measure coverage, a gone file (or a symbol
 * gone from its edited file) is looked for elsewhere (REBUILT) or pruned
 * (STALE), and the reconciler is hinted so the journal converges.
 */
import type { HomePaths } from "../config/mod.ts";
import { ensurePrivateDir, LOG_ROTATE_BYTES, writePrivateFile } from "../config/private_files.ts";
import { writeHintFile } from "../hints/hints.ts";
import {
  basename,
  contentHashAsync,
  decodeText,
  dirname,
  exists,
  join,
  redactSecrets,
  sniffSecret,
} from "../files/mod.ts";
import { type Journal, lastAudit, listRoots } from "../store/mod.ts";
import { notePaths } from "./notes.ts";
import {
  clip,
  isSemanticOnly,
  isTextOnly,
  kindOf,
  lastLine,
  leadingComment,
  matchingLine,
  spanOf,
  summaryOf,
  symbolOf,
} from "./hit_text.ts";
import { type ChunkMeta, isFileChunk } from "./rank.ts";
import type { FocusedCandidate as Candidate } from "./focus.ts";
import { READ_LIMIT_BYTES, type ReadCache } from "./file_reads.ts";
import { holdsGit } from "./repo_folders.ts";
import {
  definitionLine,
  type GoneHit,
  relocate,
  type Relocated,
  relocateSymbol,
} from "./relocate.ts";
import { type SymbolsNow, symbolsNow } from "./lines_now.ts";
import type { HitSymbol, PrunedHit, SearchHit } from "./types.ts";
import { type Coverage, coverage, decideVerdict, type HitFacts } from "./verdict.ts";
import { framedBy, type StackFrame } from "./frames.ts";

/** Files larger than this are not read back (the index never holds their text). */
const MAX_READ_BYTES = READ_LIMIT_BYTES;

/** What a verification run needs and collects. */
export interface VerifyOptions {
  /** The query's content words. */
  words: readonly string[];
  /** The frames of a stack trace the question holds: a hit one names is what it asks about. */
  frames?: readonly StackFrame[];
  threshold: number;
  /**
   * Time budget for looking for gone files on disk, for the whole search:
   * the time spent looking, not the time since verification began (the
   * second stage's reading and scoring spent it before any look).
   */
  relocateBudgetMs: number;
  home?: HomePaths;
  now?: number;
}

/** A verified hit before it is numbered. */
export type VerifiedHit = Omit<SearchHit, "rank" | "confidence">;

/**
 * Checks candidates one at a time. Collects the paths to hint and the hits
 * pruned; {@link Verifier.finish} writes the hint file and the log.
 */
export class Verifier {
  readonly pruned: PrunedHit[] = [];
  readonly #hints = new Set<string>();
  readonly #log: string[] = [];
  readonly #repoCache = new Map<string, string | null>();
  readonly #roots: Map<number, string>;
  readonly #audits = new Map<number, string | null>();
  /** Time left for looking for gone files (`relocate`), spent by the looks alone. */
  #relocateLeft: number;
  /** Gone paths whose look ran out of that time before it had looked everywhere. */
  readonly #cutShort = new Set<string>();
  readonly #now: number;
  #globalIgnore: string | undefined;
  readonly #whereNow = new Map<string, Relocated | undefined>();

  constructor(
    readonly j: Journal,
    readonly opts: VerifyOptions,
    readonly cache: ReadCache = new Map(),
  ) {
    this.#now = opts.now ?? Date.now();
    this.#relocateLeft = opts.relocateBudgetMs;
    this.#roots = new Map(
      listRoots(j).map((r) => [r.id, r.path]),
    );
  }

  /**
   * Verifies one candidate; `hashIt` also compares its content hash (as is
   * done for a file whose size is as indexed and mtime is not).
   * Returns undefined when it is STALE (pruned, hinted, logged).
   */
  async verify(c: Candidate, hashIt: boolean): Promise<VerifiedHit | undefined> {
    const m = c.best;
    if (m.path_id === null) return this.#verifyLoose(c);
    if (c.movedTo) return this.#verifyElsewhere(c, c.movedTo);
    const path = m.path!;
    const st = statFile(path);
    if (!st) {
      const denied = statDenied(path);
      return denied === undefined ? this.#verifyGone(c) : this.#verifyHidden(c, denied);
    }
    const sameStat = st.size === m.size && (st.mtime?.getTime() ?? 0) === m.mtime_ms;
    let unreadable: string | undefined;
    const bytes = st.size > MAX_READ_BYTES
      ? undefined
      : this.cache.get(path) ?? readBytes(path, (why) => unreadable = why);
    if (st.size > MAX_READ_BYTES) {
      unreadable = `${st.size} bytes, over the ${MAX_READ_BYTES / 1024 / 1024} MB read limit`;
    }
    // Unread, a changed file's symbols are not looked for: not read is not "not found in it".
    const read = bytes !== undefined;
    let hash: HitFacts["hash"] = "unchecked";
    // A file of its size with another mtime (touched, or checked out and back) is hashed
    // whatever its rank: its bytes are read anyway, and "changed" would be a guess.
    const touched = !sameStat && st.size === m.size;
    if ((hashIt || touched) && bytes) {
      hash = (await contentHashAsync(bytes)) === m.hash ? "same" : "differs";
    }
    const changed = hash === "differs" || (!sameStat && hash !== "same");
    if (!sameStat || hash === "differs") this.#hints.add(path);
    const text = bytes ? decodeText(bytes) : "";
    // A file that holds a secret now is one the next pass drops whole (the index never
    // holds one): none of its text is shown, as none was before it was written there.
    const secret = changed && read ? sniffSecret(text) : undefined;
    if (secret !== undefined) return this.#prune(m, path, `holds a secret now (${secret})`);
    // In a changed file every symbol shown is looked for by its signature, as the hit's own is,
    // its namesakes (the same method of another class) in the order they were indexed.
    let now: SymbolsNow | undefined;
    const lineNow = (lines: readonly string[], id: number) =>
      (now ??= symbolsNow(this.j, m.path_id!, lines)).starts.get(id);
    let lines: readonly string[] | undefined;
    const span = spanOf(
      m,
      text,
      changed && read,
      (all) => lineNow(lines ??= all, m.id),
      () => now?.last.get(m.id),
    );
    // A symbol is known by its qualified name too: `Optimizer.run` answers "optimizer run";
    // not one its file no longer holds, whose name is on none of its lines now.
    const own = isFileChunk(m) || span.lost ? "" : `\n${m.title}`;
    // Edited, its doc comment is what stands above its lines now, not what was indexed.
    const doc = !changed
      ? m.doc ?? ""
      : span.lost || !read || own === "" || span.line === null
      ? ""
      : leadingComment(text, span.line);
    const cov = coverage(this.opts.words, `${span.text}${own}\n${doc}`);
    const facts: HitFacts = {
      exists: true,
      sameStat,
      hash,
      coverage: cov,
      ...(this.#framed(path, m, span) ? { framed: true as const } : {}),
      semanticOnly: isSemanticOnly(c),
      threshold: this.opts.threshold,
      ...(changed ? { changedAgoMs: this.#now - (st.mtime?.getTime() ?? this.#now) } : {}),
      ...(span.lost ? { lostSymbol: m.title } : {}),
      ...(unreadable !== undefined ? { unreadable } : {}),
    };
    const { verdict, reason } = decideVerdict(facts);
    const match = isTextOnly(m) ? matchingLine(span.text, span.line ?? 1, this.opts.words) : null;
    const movedTo = changed && read
      ? (u: ChunkMeta) =>
        u.signature === null || isFileChunk(u) || u.start_line === null
          ? undefined
          // A section not found (its heading reworded) stays where it was; a symbol is gone.
          : lineNow(lines ??= text.split("\n"), u.id) ?? (u.source === "docs" ? undefined : null)
      : undefined;
    return this.#hit(
      c,
      verdict === "STALE" ? "WEAK" : verdict,
      reason,
      {
        path,
        line: span.line,
        endLine: span.endLine,
        coverage: cov,
        movedFrom: null,
        // A symbol gone from its lines shows what stands there now (`apply_coupon` where
        // `apply_discount` was), never a signature the file no longer holds.
        summary: match?.text ?? summaryOf(m, span.there ?? span.text, changed && read),
        matchLine: match?.line ?? null,
        checked: hash === "unchecked" ? "stat" : "hash",
        behind: changed ? this.#now - (st.mtime?.getTime() ?? this.#now) : null,
      },
      movedTo,
      changed && read ? lastLine(text) : undefined,
      (u) => now?.last.get(u.id),
    );
  }

  /**
   * Where a file that is gone from its path is now (`relocate.ts`), looked
   * for once per path and search within the search's relocation budget:
   * the second stage asks first (to score a file whose bytes moved where
   * they are), verification then reuses the answer.
   */
  whereNow(m: ChunkMeta): Relocated | undefined {
    const path = m.path!;
    if (this.#whereNow.has(path)) return this.#whereNow.get(path);
    const root = m.root_id !== null ? this.#roots.get(m.root_id) : undefined;
    const gone: GoneHit = {
      path,
      pathId: m.path_id!,
      root: root ?? dirname(path),
      rel: m.rel ?? basename(path),
      hash: m.hash,
      size: m.size ?? -1,
      symbol: m.name !== null && m.kind !== "file"
        ? {
          name: m.name,
          structHash: m.struct_hash,
          signature: m.signature,
          line: m.start_line,
          // Moved and edited: placed among its namesakes as in its own changed file. Another
          // file of its name (`util.py`, `index.ts`) holding a like signature (`def area(self):`)
          // is not where it went: the file it went to holds most of its definitions still.
          place: (lines) => {
            const now = symbolsNow(this.j, m.path_id!, lines).starts;
            let placed = 0;
            for (const at of now.values()) if (typeof at === "number") placed++;
            return placed * 2 < now.size ? null : now.get(m.id);
          },
        }
        : null,
    };
    const found = root === undefined ? undefined : this.#relocate(gone);
    this.#whereNow.set(path, found);
    return found;
  }

  /**
   * True when the file of `m` is on disk as it was indexed, by its stat
   * (size and mtime): what the index says of its lines holds.
   */
  unchangedOnDisk(m: ChunkMeta): boolean {
    const st = m.path === null ? undefined : statFile(m.path);
    return st !== undefined && st.size === m.size && st.mtime?.getTime() === m.mtime_ms;
  }

  /**
   * Where a symbol that its file, still there and edited, no longer holds
   * is defined now (`relocateSymbol`: a function moved to another module),
   * within the search's relocation budget. The second stage asks, once a
   * search, for the symbol that brought its file into the ranking; the hit
   * is then verified there, REBUILT.
   */
  whereMoved(m: ChunkMeta): Relocated | undefined {
    const root = m.root_id !== null ? this.#roots.get(m.root_id) : undefined;
    return root === undefined || m.path === null || m.name === null
      ? undefined
      : this.#budgeted((deadline) =>
        relocateSymbol(this.j, {
          path: m.path!,
          root,
          rel: m.rel ?? basename(m.path!),
          name: m.name!,
          signature: m.signature,
          line: m.start_line,
        }, { deadline, globalIgnore: this.#ignore() })
      );
  }

  /**
   * {@link relocate} within what is left of the search's budget for looking
   * (see {@link Verifier.#budgeted}).
   */
  #relocate(gone: GoneHit): Relocated | undefined {
    return this.#budgeted((deadline) => {
      const found = relocate(this.j, gone, { deadline, globalIgnore: this.#ignore() });
      // Not found, but not looked for everywhere either: the budget ran out first.
      if (found === undefined && performance.now() >= deadline) this.#cutShort.add(gone.path);
      return found;
    });
  }

  /**
   * A look given what is left of the search's budget for looking as its
   * deadline, and charged with the time it took: reading and scoring the
   * files ranked first spent none of it (a search of a few hundred
   * milliseconds had none left, and a note whose file was renamed in its
   * folder said the file was gone).
   */
  #budgeted<T>(look: (deadline: number) => T): T {
    const start = performance.now();
    try {
      return look(start + Math.max(0, this.#relocateLeft));
    } finally {
      this.#relocateLeft -= performance.now() - start;
    }
  }

  #verifyGone(c: Candidate): VerifiedHit | undefined {
    const m = c.best;
    const path = m.path!;
    const found = this.whereNow(m);
    this.#hints.add(path);
    if (!found) {
      return this.#prune(
        m,
        path,
        this.#cutShort.has(path)
          // "Not found under its root" of a root not looked through: it may have moved.
          ? `gone from disk; not found in the ${this.opts.relocateBudgetMs} ms a search looks for moved files, so its root was not looked through (the next \`heimdall index\` of it finds where it went)`
          : "gone from disk and not found under its root",
      );
    }
    return this.#verifyElsewhere(c, found);
  }

  /**
   * A candidate found again elsewhere (its file gone, or its symbol moved
   * out of its file): verified where it is now, REBUILT, with where it was.
   */
  #verifyElsewhere(c: Candidate, found: Relocated): VerifiedHit | undefined {
    const m = c.best;
    const path = m.path!;
    this.#hints.add(path);
    // The second stage may have read it there already (a moved file it scored).
    const bytes = this.cache.get(found.path) ?? readBytes(found.path);
    const text = bytes ? decodeText(bytes) : "";
    // The same content has every line where it was; a symbol found again is at the line found.
    const same = found.how === "same content";
    // Other bytes than were indexed: screened as the reconciler will screen them.
    const secret = same ? undefined : sniffSecret(text);
    if (secret !== undefined) {
      this.#hints.add(found.path);
      return this.#prune(
        m,
        path,
        `found again in ${found.path}, which holds a secret now (${secret})`,
      );
    }
    this.#hints.add(found.path);
    this.#log.push(`re-anchored ${path} → ${found.path} (${found.how}); hinted the reconciler`);
    let line = same || isFileChunk(m) ? m.start_line : found.line ??
      (m.signature
        ? definitionLine(text.split("\n"), m.signature, m.start_line ?? 1)
        : undefined) ??
      m.start_line;
    if (isFileChunk(m)) line = m.start_line;
    const length = (m.end_line ?? m.start_line ?? 1) - (m.start_line ?? 1);
    const span = spanOf(
      { ...m, start_line: line, end_line: line === null ? null : line + length },
      text,
      false,
    );
    const own = isFileChunk(m) ? "" : `\n${m.title}`;
    const doc = same
      ? m.doc ?? ""
      : own === "" || span.line === null || span.text === ""
      ? ""
      : leadingComment(text, span.line);
    const cov = coverage(this.opts.words, `${span.text}${own}\n${doc}`);
    const { verdict, reason } = decideVerdict({
      exists: false,
      relocated: { from: path, how: found.how },
      sameStat: same,
      hash: same ? "same" : "unchecked",
      coverage: cov,
      ...(this.#framed(found.path, m, span) ? { framed: true as const } : {}),
      semanticOnly: isSemanticOnly(c),
      threshold: this.opts.threshold,
    });
    const match = isTextOnly(m) ? matchingLine(span.text, span.line ?? 1, this.opts.words) : null;
    // Units the second stage scored elsewhere (at the gone path, through a symlink left
    // there) are not at their lines in the file found: it lists its own symbol alone.
    return this.#hit(
      same ? c : { ...c, units: [] },
      verdict === "STALE" ? "WEAK" : verdict,
      reason,
      {
        path: found.path,
        line: span.line,
        endLine: span.endLine,
        coverage: cov,
        movedFrom: path,
        summary: match?.text ?? summaryOf(m, span.text, !same),
        matchLine: match?.line ?? null,
        checked: found.how === "same content" ? "hash" : "stat",
        behind: null,
      },
    );
  }

  /**
   * A hit whose file a folder above it hides now (chmod 000: its stat is
   * refused): not gone, and nothing known of it changed; WEAK, at its
   * indexed lines, its text unchecked. It was pruned as "gone from disk and
   * not found under its root".
   */
  #verifyHidden(c: Candidate, why: string): VerifiedHit {
    const m = c.best;
    const span = spanOf(m, "", false);
    const own = isFileChunk(m) ? "" : `\n${m.title}`;
    const cov = coverage(this.opts.words, `${own}\n${m.doc ?? ""}`);
    const { verdict, reason } = decideVerdict({
      exists: true,
      sameStat: true,
      hash: "unchecked",
      coverage: cov,
      semanticOnly: isSemanticOnly(c),
      threshold: this.opts.threshold,
      unreadable: why,
    });
    return this.#hit(c, verdict === "STALE" ? "WEAK" : verdict, reason, {
      path: m.path,
      line: span.line,
      endLine: span.endLine,
      coverage: cov,
      movedFrom: null,
      summary: summaryOf(m, "", false),
      matchLine: null,
      checked: "stat",
      behind: null,
    });
  }

  /** True when a frame of the question's stack trace names the hit at `path`, at its lines now. */
  #framed(
    path: string,
    m: Candidate["best"],
    span: { line: number | null; endLine: number | null; lost?: true },
  ): boolean {
    const frames = this.opts.frames ?? [];
    if (frames.length === 0 || span.lost) return false;
    return framedBy(frames, { path, symbol: symbolOf(m), line: span.line, end_line: span.endLine });
  }

  /** Prunes a hit (STALE: never shown), logs why and hints the reconciler at its path. */
  #prune(m: Candidate["best"], path: string, reason: string): undefined {
    this.#hints.add(path);
    this.pruned.push({ path, symbol: symbolOf(m), reason });
    this.#log.push(
      `pruned ${path}${
        m.kind !== "file" && m.name ? ` (${m.title})` : ""
      }: ${reason}; hinted the reconciler to retract it`,
    );
    return undefined;
  }

  #verifyLoose(c: Candidate): VerifiedHit {
    const m = c.best;
    let text = `${m.title}\n${m.text ?? ""}`;
    let paths: { path: string; hash: string | null; size: number | null }[] = [];
    if (m.source === "notes" && typeof m.ref_id === "number") {
      const note = this.j.get<{ keywords: string }>(
        "SELECT keywords FROM notes WHERE id = ?",
        m.ref_id,
      );
      if (note) text += `\n${note.keywords.replaceAll(",", " ")}`;
      paths = notePaths(this.j, m.ref_id);
    } else if (m.anchor !== null) {
      paths = [{ path: m.anchor, hash: null, size: null }];
    }
    let shown: string | null = paths[0]?.path ?? null;
    let movedFrom: string | null = null;
    let missingPath: string | undefined;
    let relocated: HitFacts["relocated"];
    for (const p of paths) {
      // A note or memory may point at a folder: anything there is the path, present. One a
      // folder above it hides (chmod 000) is not known to be gone.
      if (exists(p.path) || statDenied(p.path) !== undefined) continue;
      const root = [...this.#roots.values()].find((r) => p.path.startsWith(r + "/"));
      const found = p.hash === null || root === undefined ? undefined : this.#relocate({
        path: p.path,
        pathId: -1,
        root,
        rel: p.path.slice(root.length + 1),
        hash: p.hash,
        size: p.size ?? -1,
        symbol: null,
      });
      if (found) {
        relocated ??= { from: p.path, how: found.how };
        if (p.path === shown) {
          shown = found.path;
          movedFrom = p.path;
        }
      } else {
        missingPath ??= p.path;
      }
    }
    const cov = coverage(this.opts.words, text);
    const facts: HitFacts = {
      exists: true,
      sameStat: true,
      hash: "same",
      coverage: cov,
      semanticOnly: isSemanticOnly(c),
      threshold: this.opts.threshold,
      ...(missingPath !== undefined ? { missingPath } : {}),
      ...(relocated ? { relocated } : {}),
    };
    const { verdict, reason } = decideVerdict(facts);
    const firstLine = (m.text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? null;
    return this.#hit(c, verdict === "STALE" ? "WEAK" : verdict, reason, {
      path: shown,
      line: m.start_line,
      endLine: m.end_line,
      coverage: cov,
      movedFrom,
      summary: firstLine === null ? null : clip(firstLine),
      matchLine: null,
      checked: "text",
      behind: null,
    });
  }

  #hit(
    c: Candidate,
    verdict: VerifiedHit["verdict"],
    reason: string | null,
    at: {
      path: string | null;
      line: number | null;
      endLine: number | null;
      coverage: Coverage;
      movedFrom: string | null;
      summary: string | null;
      matchLine: number | null;
      checked: "hash" | "stat" | "text";
      behind: number | null;
    },
    movedTo?: (u: ChunkMeta) => number | null | undefined,
    fileEnd?: number,
    lastOf?: (u: ChunkMeta) => number | undefined,
  ): VerifiedHit {
    const m = c.best;
    const legs = [...new Set([m, ...c.others].flatMap((o) => o.legs))];
    return {
      verdict,
      reason,
      path: at.path,
      repo: at.path === null ? null : this.#repoOf(at.path, m.root_id),
      line: at.line,
      end_line: at.endLine,
      symbol: symbolOf(m),
      kind: kindOf(m),
      source: m.source,
      score: Math.round((Number.isFinite(c.focus) ? c.focus : c.score) * 1e6) / 1e6,
      coverage: Math.round(at.coverage.coverage * 100) / 100,
      moved_from: at.movedFrom,
      summary: at.summary,
      match_line: at.matchLine,
      others: c.others.length,
      symbols: symbolsOf(c, at.line, at.endLine, movedTo, fileEnd, lastOf),
      copies: this.#copiesOnDisk(c.copies, at.path),
      same_code: [],
      ref_id: m.ref_id,
      legs,
      freshness: {
        checked: at.checked,
        verified_at: new Date(this.#now).toISOString(),
        index_behind_ms: at.behind,
        root_audited_at: m.root_id === null ? null : this.#audited(m.root_id),
      },
    };
  }

  /**
   * The copies a hit at `shown` lists: those on disk, but itself (a copy the
   * hit was found again at); a gone one is hinted to the reconciler.
   */
  #copiesOnDisk(copies: readonly string[], shown: string | null): string[] {
    return copies.filter((p) => {
      if (p === shown) return false;
      if (statFile(p)) return true;
      this.#hints.add(p);
      return false;
    });
  }

  /**
   * Writes one hint file naming every path that needs the reconciler's look
   * and appends what was pruned or re-anchored to `logs/search.log`. Does
   * nothing without a home; a failure to write never fails the search.
   */
  finish(query: string): void {
    const home = this.opts.home;
    if (!home) return;
    try {
      if (this.#hints.size > 0) writeHintFile(home.hints, [...this.#hints].sort());
    } catch { /* a read-only home: the verdicts still stand */ }
    if (this.#log.length === 0) return;
    try {
      ensurePrivateDir(home.logs);
      const at = new Date(this.#now).toISOString();
      writePrivateFile(
        join(home.logs, "search.log"),
        // The query may be an agent's prompt (the prompt hook searches with it).
        redactSecrets(
          this.#log.map((l) => `${at} ${l} (query ${JSON.stringify(query)})\n`).join(""),
        ),
        { append: true, rotateAt: LOG_ROTATE_BYTES },
      );
    } catch { /* as above */ }
  }

  #ignore(): string {
    if (this.#globalIgnore === undefined) {
      try {
        this.#globalIgnore = this.opts.home ? Deno.readTextFileSync(this.opts.home.ignore) : "";
      } catch {
        this.#globalIgnore = "";
      }
    }
    return this.#globalIgnore;
  }

  #audited(rootId: number): string | null {
    if (!this.#audits.has(rootId)) {
      const at = lastAudit(this.j, rootId);
      this.#audits.set(rootId, at !== null ? new Date(at).toISOString() : null);
    }
    return this.#audits.get(rootId)!;
  }

  /** The repository a file is in: the nearest folder with a `.git` inside its root, else the root. */
  #repoOf(path: string, rootId: number | null): string | null {
    const root = rootId !== null
      ? this.#roots.get(rootId)
      : [...this.#roots.values()].find((r) => path.startsWith(r + "/"));
    if (root === undefined) return null;
    for (let dir = dirname(path); dir.length >= root.length; dir = dirname(dir)) {
      let name = this.#repoCache.get(dir);
      if (name === undefined) {
        name = holdsGit(dir) ? basename(dir) : null;
        this.#repoCache.set(dir, name);
      }
      if (name !== null) return name;
      if (dir === root || dir === "/") break;
    }
    return basename(root);
  }
}

/**
 * The units of a hit's file that answer the query, best first, at most five;
 * the first is the hit's own symbol at the lines it was verified at, the
 * others where `movedTo` finds them now in a changed file (left out when it
 * finds them nowhere: `null`), else where indexed, none past `fileEnd`
 * (a changed file's end) nor into the symbol below it now (`lastOf`). A hit whose file was
 * not read (moved: found again after ranking) lists its own symbol alone;
 * a note or memory lists none.
 */
function symbolsOf(
  c: Candidate,
  line: number | null,
  endLine: number | null,
  movedTo?: (u: ChunkMeta) => number | null | undefined,
  fileEnd = Infinity,
  lastOf?: (u: ChunkMeta) => number | undefined,
): HitSymbol[] {
  // A note or memory is its own text, with no lines in the file it points at.
  if (c.best.path_id === null) return [];
  const units = c.units.length > 0 || isFileChunk(c.best)
    ? c.units
    : [{ chunk: c.best, score: Number.isFinite(c.focus) ? c.focus : c.score }];
  return units.slice(0, 5).flatMap((u) => {
    const m = u.chunk;
    const indexed = m.start_line ?? 1;
    const moved = m.id === c.best.id ? line ?? indexed : movedTo?.(m);
    if (moved === null) return [];
    const now = moved ?? indexed;
    const shift = now - indexed;
    // The hit's own lines are as verified (a symbol gone from its file: cut at its end).
    const own = m.id === c.best.id && line !== null ? endLine : null;
    return [{
      name: m.title,
      kind: kindOf({ ...m, score: 0, legs: [] }) ?? "file",
      line: now,
      end_line: own ??
        Math.max(
          now,
          Math.min((m.end_line ?? m.start_line ?? 1) + shift, fileEnd, lastOf?.(m) ?? Infinity),
        ),
      score: Math.round(u.score * 1e4) / 1e4,
    }];
  });
}

/**
 * A path's stat when it is a regular file, else undefined: a symlink is not
 * followed (the index never holds one; the next pass drops a file replaced
 * by one), so its target's text is never shown as the file's.
 */
/**
 * Why a path's stat is refused (a folder above it is not searchable for
 * this user), or undefined when it is not: gone, or there.
 */
function statDenied(path: string): string | undefined {
  try {
    Deno.lstatSync(path);
    return undefined;
  } catch (e) {
    return e instanceof Deno.errors.PermissionDenied ? e.message : undefined;
  }
}

function statFile(path: string): Deno.FileInfo | undefined {
  try {
    const st = Deno.lstatSync(path);
    return st.isFile ? st : undefined;
  } catch {
    return undefined;
  }
}

/** A file's bytes, or undefined (`why`, when given, is told the error) when it cannot be read. */
function readBytes(path: string, why?: (error: string) => void): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    why?.(e instanceof Error ? e.message : String(e));
    return undefined;
  }
}
