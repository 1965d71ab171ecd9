/**
 * The agent's own last words: the last assistant message of a session, read
 * from the transcript file a harness names (Claude Code's and pi's JSONL,
 * Gemini CLI's JSON chat, Codex's rollout JSONL, Cursor's text transcript),
 * so the stop hook can keep the agent's summary beside the structured note.
 * Reads only the file's tail; never throws.
 */
import { redactSecrets } from "../files/secrets.ts";
import { readTail } from "../files/tail.ts";

/** How much of a transcript's end is read: the last message sits there. */
const TAIL_BYTES = 512 * 1024;
/** The longest summary kept (characters); a longer message is cut at a sentence. */
export const SUMMARY_MAX_CHARS = 2000;

/** The assistant roles the harnesses write. */
const ASSISTANT = new Set(["assistant", "gemini", "model", "agent"]);
/** The person's roles. */
const USER = new Set(["user", "human"]);
/** How much of a transcript's end the personal-memory scan reads. */
const TURNS_BYTES = 4 * 1024 * 1024;

/** One turn of a transcript: who spoke, the text, and the 1-based line it starts on. */
export interface TranscriptTurn {
  role: "user" | "assistant";
  text: string;
  line: number;
  /**
   * Where its line starts in the file (bytes), in a transcript written line
   * by line (JSONL, text); absent in one JSON document (rewritten whole).
   */
  at?: number;
}

/** UTF-8 length of `s` in bytes (a lone surrogate counts as U+FFFD's 3). */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/**
 * The first of `turns` (a transcript's, as {@link transcriptTurns} read it)
 * that a scan has not read yet, given the last turn it read (`lastAt`, its
 * place in the file) or, for a transcript without places (one JSON
 * document), how many turns it read (pure). A transcript written line by
 * line is told by places, which stay true however far the 4 MiB read
 * slides; a shorter one than was read is a new one (cleared, compacted),
 * read whole.
 */
export function firstUnread(
  turns: readonly TranscriptTurn[],
  lastAt: number | undefined,
  count: number | undefined,
): number {
  const last = turns.at(-1)?.at;
  if (lastAt !== undefined && last !== undefined) {
    if (last < lastAt) return 0;
    const i = turns.findIndex((t) => t.at !== undefined && t.at > lastAt);
    return i < 0 ? turns.length : i;
  }
  const read = count ?? 0;
  return read <= turns.length ? read : 0;
}

/**
 * The turns of the transcript at `path` (its last 4 MiB), in order: the
 * person's and the assistant's text (tool calls, tool results and thinking
 * left out). Empty when the file is missing or holds none.
 */
export function transcriptTurns(path: string): TranscriptTurn[] {
  let text: string;
  let firstLine = 1;
  let size: number;
  try {
    size = Deno.statSync(path).size;
    text = readTail(path, TURNS_BYTES);
    if (size > TURNS_BYTES) {
      // Lines before the tail are unknown: count from where it starts, past the cut line.
      const cut = text.indexOf("\n");
      text = text.slice(cut + 1);
      firstLine = 2;
    }
  } catch {
    return [];
  }
  const turns: TranscriptTurn[] = [];
  const lines = text.split("\n");
  // Where each line starts in the file: the text read is the file's last bytes.
  const starts: number[] = [];
  let at = size - utf8Length(text);
  for (const l of lines) {
    starts.push(at);
    at += utf8Length(l) + 1;
  }
  if (path.endsWith(".txt")) {
    let current: TranscriptTurn | undefined;
    lines.forEach((l, i) => {
      const m = /^\s*(assistant|A|user|human|U)\s*:\s*$/i.exec(l);
      if (m) {
        if (current && current.text.trim() !== "") {
          turns.push({ ...current, text: current.text.trim() });
        }
        const who = m[1]!.toLowerCase();
        current = {
          role: who === "user" || who === "human" || who === "u" ? "user" : "assistant",
          text: "",
          line: firstLine + i + 1,
          at: starts[i]!,
        };
      } else if (current) current.text += l + "\n";
    });
    if (current && current.text.trim() !== "") {
      turns.push({ ...current, text: current.text.trim() });
    }
    return turns;
  }
  if (isJsonLines(path, lines)) {
    lines.forEach((l, i) => {
      if (!l.trim().startsWith("{")) return;
      try {
        const t = turnOf(JSON.parse(l));
        if (t) turns.push({ ...t, line: firstLine + i, at: starts[i]! });
      } catch {
        // not JSON
      }
    });
    return turns;
  }
  try {
    const doc = JSON.parse(text);
    const list = Array.isArray(doc) ? doc : record(doc)?.messages ?? record(doc)?.history;
    if (Array.isArray(list)) {
      for (const e of list) {
        const t = turnOf(e);
        if (t) turns.push({ ...t, line: 1 });
      }
    }
  } catch {
    // not a JSON chat
  }
  return turns;
}

function turnOf(entry: unknown): Omit<TranscriptTurn, "line"> | null {
  const e = record(entry);
  if (!e) return null;
  // Claude Code's meta entries (command output, injected reminders) are not the person's words.
  if (e.isMeta === true) return null;
  const inner = record(e.message) ?? record(e.payload) ?? e;
  const role = str(inner.role) ?? str(e.role) ?? str(e.type);
  if (role === null) return null;
  const who = ASSISTANT.has(role) ? "assistant" : USER.has(role) ? "user" : null;
  if (who === null) return null;
  const text = partsText(inner.content ?? inner.parts ?? inner.text);
  return text === "" ? null : { role: who, text };
}

/**
 * The last assistant message in the transcript at `path`, trimmed and cut
 * to {@link SUMMARY_MAX_CHARS}; null when the file is missing, unreadable or
 * holds none.
 */
export function lastAssistantMessage(path: string): string | null {
  let text: string;
  try {
    text = readTail(path, TAIL_BYTES);
  } catch {
    return null;
  }
  const found = path.endsWith(".txt")
    ? fromText(text)
    : fromJsonLines(path, text) ?? fromJson(text);
  return found === null ? null : capSummary(found);
}

/**
 * `text` with secrets redacted, trimmed and cut to {@link SUMMARY_MAX_CHARS} at
 * the last sentence end that fits.
 */
export function capSummary(text: string): string | null {
  // Redacted before the cut: a secret cut in half would no longer be recognised.
  const t = redactSecrets(text).trim();
  if (t === "") return null;
  if (t.length <= SUMMARY_MAX_CHARS) return t;
  const cut = t.slice(0, SUMMARY_MAX_CHARS - 1);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf(".\n"), cut.lastIndexOf("\n\n"));
  return (end > SUMMARY_MAX_CHARS / 2 ? cut.slice(0, end + 1) : cut).trimEnd() + "…";
}

/** A `.jsonl` file, or one with several lines that are JSON objects. */
function isJsonLines(path: string, lines: readonly string[]): boolean {
  return path.endsWith(".jsonl") || lines.filter((l) => l.trim().startsWith("{")).length >= 2;
}

/** JSONL, newest line first: the first entry an assistant wrote with text in it. */
function fromJsonLines(path: string, text: string): string | null {
  const lines = text.split("\n");
  if (!isJsonLines(path, lines)) return null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith("{")) continue;
    try {
      const said = assistantText(JSON.parse(line));
      if (said) return said;
    } catch {
      // a line cut by the tail read, or not JSON
    }
  }
  return null;
}

/** One JSON document (Gemini CLI's chat file): its last assistant message. */
function fromJson(text: string): string | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  const list = Array.isArray(doc) ? doc : record(doc)?.messages ?? record(doc)?.history;
  if (!Array.isArray(list)) return assistantText(doc);
  for (let i = list.length - 1; i >= 0; i--) {
    const said = assistantText(list[i]);
    if (said) return said;
  }
  return null;
}

/** A plain-text transcript: the block after the last `assistant:` line. */
function fromText(text: string): string | null {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/^\s*(assistant|A)\s*:\s*$/i.test(lines[i]!)) {
      const block: string[] = [];
      for (const l of lines.slice(i + 1)) {
        if (/^\s*(user|human|U)\s*:\s*$/i.test(l)) break;
        block.push(l);
      }
      const said = block.join("\n").trim();
      if (said !== "") return said;
    }
  }
  return null;
}

/**
 * The text of one transcript entry when an assistant wrote it: `{role,
 * content}`, `{type: "assistant", message: {…}}` (Claude Code), `{type:
 * "message", message: {…}}` (pi), `{payload: {type: "message", role,
 * content}}` (Codex), `{type: "gemini", content}` (Gemini CLI). Content is a
 * string or a list of parts whose text parts are joined; tool calls and
 * thinking are not text.
 */
function assistantText(entry: unknown): string | null {
  const e = record(entry);
  if (!e) return null;
  const inner = record(e.message) ?? record(e.payload) ?? e;
  const role = str(inner.role) ?? str(e.role) ?? str(e.type);
  if (role === null || !ASSISTANT.has(role)) return null;
  const text = partsText(inner.content ?? inner.parts ?? inner.text);
  return text === "" ? null : text;
}

function partsText(content: unknown): string {
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return "";
  return content
    .map((p) => {
      if (typeof p === "string") return p;
      const o = record(p);
      if (!o) return "";
      const type = str(o.type);
      if (type !== null && type !== "text" && type !== "output_text") return "";
      return str(o.text) ?? "";
    })
    .filter((t) => t.trim() !== "")
    .join("\n")
    .trim();
}

function record(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? v as Record<string, unknown>
    : null;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
