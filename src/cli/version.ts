/**
 * What `heimdall --version` says: Heimdall's version, the commit it was built
 * from, and the Deno and SQLite it runs on. A compiled binary reads the commit
 * from `build_info.json` (written by `scripts/compile.ts` and embedded with
 * `--include`); a run from source asks git in the clone.
 */
import { DatabaseSync } from "node:sqlite";
import denoJson from "../../deno.json" with { type: "json" };

/** Heimdall's release version (deno.json's `version`). */
export const VERSION: string = denoJson.version;

/** Where `scripts/compile.ts` writes the commit a binary is built from, relative to the project root. */
export const BUILD_INFO = "build_info.json";

const projectRoot = `${import.meta.dirname}/../..`;

/** The short commit Heimdall was built from, `"<hash>+dirty"` for uncommitted changes, or `"unknown"`. */
export function commit(): string {
  try {
    const info = JSON.parse(Deno.readTextFileSync(`${projectRoot}/${BUILD_INFO}`));
    if (typeof info.commit === "string" && info.commit !== "") return info.commit;
  } catch {
    // No build info: a run from source.
  }
  return gitCommit(projectRoot) ?? "unknown";
}

/** The short HEAD of the git clone at `dir` (with `+dirty` when tracked files changed), or undefined. */
export function gitCommit(dir: string): string | undefined {
  const git = (...args: string[]) => {
    try {
      const out = new Deno.Command("git", { args: ["-C", dir, ...args], stderr: "null" })
        .outputSync();
      return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
    } catch {
      return undefined; // no git on this machine
    }
  };
  const head = git("rev-parse", "--short=12", "HEAD");
  if (head === undefined || head === "") return undefined;
  const dirty = git("status", "--porcelain", "--untracked-files=no");
  return dirty ? `${head}+dirty` : head;
}

/** The SQLite library linked into this Deno (`node:sqlite`). */
export function sqliteVersion(): string {
  const db = new DatabaseSync(":memory:");
  try {
    return String((db.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v);
  } finally {
    db.close();
  }
}

/** `heimdall 0.1.0 (commit 1a2b3c4d5e6f) · deno 2.9.6 · sqlite 3.53.0` */
export function versionLine(): string {
  return `heimdall ${VERSION} (commit ${commit()}) · deno ${Deno.version.deno} · sqlite ${sqliteVersion()}`;
}
