/**
 * Personal memory without spending LLM tokens: durable statements a person
 * made in a session ("always …", "never …", "we use …", a decision, a
 * correction) are found in the transcript by fixed patterns, queued for
 * review with their source line and a confidence, and, once accepted (by the
 * person, or above a configured confidence), kept as a private `preference`
 * memory on the project. A near-duplicate of a queued or accepted statement
 * raises its `seen` count instead of queueing it again (the same wording rule
 * as a repeated failure). Capture is pure; the queue lives in the journal's
 * `personal_candidates`.
 */
import { findSecrets } from "../files/mod.ts";
import type { Journal } from "../store/mod.ts";
import { getMemoryRow } from "./records.ts";
import { cleanText, prepareRemember, writeRemembered } from "./remember.ts";
import { trigramSimilarity } from "./similarity.ts";
import { MemoryInputError } from "./types.ts";

/** What kind of durable statement a candidate is. */
export type CandidateKind = "rule" | "preference" | "decision" | "correction";

/** One turn of a transcript: who spoke, what they said, and where. */
export interface Turn {
  /** Who spoke: the person or the agent. */
  role: "user" | "assistant";
  /** What they said. */
  text: string;
  /** 1-based line of the transcript file the turn starts on. */
  line: number;
}

/** A durable statement found in a transcript, not yet reviewed. */
export interface Candidate {
  /** The statement, as said. */
  text: string;
  /** What sort of statement it is. */
  kind: CandidateKind;
  /** 0–1: how surely the wording is a standing rule rather than a passing remark. */
  confidence: number;
  /** Where it was said (`file:line`, or the distiller that proposed it). */
  source: string;
}

/** Patterns of durable statements, strongest first; the first that matches a sentence wins. */
const PATTERNS: readonly { re: RegExp; kind: CandidateKind; confidence: number }[] = [
  { re: /\bfrom now on\b|\bgoing forward\b/i, kind: "rule", confidence: 0.9 },
  { re: /^(please\s+)?(always|never)\b/i, kind: "rule", confidence: 0.85 },
  {
    re:
      /^(we|our team|this (project|repo|codebase))\s+(always\s+|never\s+)?(use|uses|prefer|prefers|don'?t use|do not use|stick to|avoid)\b/i,
    kind: "preference",
    confidence: 0.8,
  },
  {
    re:
      /^(let'?s go with|we('ll| will) go with|we decided|we('ve| have) decided|decision:|we('re| are) going with)\b/i,
    kind: "decision",
    confidence: 0.75,
  },
  { re: /^(please\s+)?(don'?t|do not)\b/i, kind: "rule", confidence: 0.75 },
  {
    re: /^(i prefer|i'?d rather|prefer|avoid|make sure( to)?|remember to)\b/i,
    kind: "preference",
    confidence: 0.7,
  },
];

/** A correction right after the assistant spoke: "no, …", "that's wrong", "actually, …". */
const CORRECTION =
  /^(no[,.!]\s|nope\b|that'?s (wrong|not right|not what)|actually,|instead,|wrong[,.])/i;

/** Sentences shorter or longer than this are remarks or pasted text, not rules. */
const MIN_CHARS = 12;
const MAX_CHARS = 300;

/**
 * The durable statements of the person in `turns` (pure): each sentence of a
 * user turn that matches a pattern (a question never does; code blocks and
 * quoted output are skipped), and a correction that answers an assistant
 * turn. `file` names the source. At most one candidate per distinct text.
 * Secrets are redacted in the whole turn before it is cut into sentences:
 * cut first, a secret holding a `.` or `!` would reach the queue in pieces
 * no pattern recognises.
 */
export function captureCandidates(turns: readonly Turn[], file: string): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const [i, turn] of turns.entries()) {
    if (turn.role !== "user") continue;
    const afterAssistant = turns[i - 1]?.role === "assistant";
    const text = redactTurn(turn.text);
    for (const { sentence, offset } of sentences(text)) {
      const found = classify(sentence, afterAssistant && offset === 0);
      if (!found) continue;
      const key = sentence.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const line = turn.line + (text.slice(0, offset).match(/\n/g)?.length ?? 0);
      out.push({ text: sentence, ...found, source: `${file}:${line}` });
    }
  }
  return out;
}

/**
 * `text` with each secret replaced by `[REDACTED:kind]`, followed by the line
 * breaks the secret spanned (a private key's), so every later sentence keeps
 * its line.
 */
function redactTurn(text: string): string {
  let out = "";
  let at = 0;
  for (const f of findSecrets(text)) {
    if (f.start < at) continue; // overlaps one already redacted
    const breaks = text.slice(f.start, f.end).match(/\n/g)?.length ?? 0;
    out += text.slice(at, f.start) + `[REDACTED:${f.kind}]` + "\n".repeat(breaks);
    at = f.end;
  }
  return out + text.slice(at);
}

function classify(
  sentence: string,
  mayCorrect: boolean,
): { kind: CandidateKind; confidence: number } | undefined {
  if (sentence.length < MIN_CHARS || sentence.length > MAX_CHARS) return undefined;
  if (sentence.endsWith("?")) return undefined;
  for (const p of PATTERNS) {
    if (p.re.test(sentence)) return { kind: p.kind, confidence: p.confidence };
  }
  if (mayCorrect && CORRECTION.test(sentence)) return { kind: "correction", confidence: 0.55 };
  return undefined;
}

/** The sentences of a turn's prose (code fences, quoted and indented lines left out), with offsets. */
function sentences(text: string): { sentence: string; offset: number }[] {
  const out: { sentence: string; offset: number }[] = [];
  let inFence = false;
  let offset = 0;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    // Code, quotes and injected markup (`<system-reminder>`) are not the person's own words.
    if (inFence || /^(\s{4}|\t|>|\s*<)/.test(line) || line.trim() === "") continue;
    const re = /[^.!?]+(?:[.!?]+|$)/g;
    for (let m = re.exec(line); m; m = re.exec(line)) {
      const s = m[0].trim();
      if (s !== "") {
        out.push({
          sentence: s,
          offset: start + m.index + (m[0].length - m[0].trimStart().length),
        });
      }
    }
  }
  return out;
}

/** A row of the review queue. */
export interface QueuedCandidate {
  /** The candidate's id. */
  id: number;
  /** The statement (redacted). */
  text: string;
  /** What sort of statement it is. */
  kind: CandidateKind;
  /** 0–1: how surely it is a standing rule. */
  confidence: number;
  /** Where it was said (`file:line`, or the distiller that proposed it). */
  source: string;
  /** The repository folder it was said in. */
  project: string;
  /** The person who said it. */
  author: string;
  /** Waiting for review, accepted or rejected. */
  status: "pending" | "accepted" | "rejected";
  /** How many times it was said (near-duplicates included). */
  seen: number;
  /** The `preference` memory it became once accepted; else null. */
  memory_id: string | null;
  /** When it was queued (ms since the epoch). */
  created_at: number;
  /** When it was accepted or rejected; null while pending. */
  decided_at: number | null;
}

/** What {@link queueCandidates} did. */
export interface QueueReport {
  /** Ids of candidates queued now. */
  queued: number[];
  /** Ids of queued or accepted candidates a new one repeated (their `seen` went up). */
  repeated: number[];
  /** Ids accepted at once: their confidence reached `autoAccept`. */
  accepted: number[];
}

/** Wording at least this alike is the same statement (the attempts' rule). */
const SAME_STATEMENT = 0.75;

/**
 * Puts `candidates` of `author` in `project` (a repository folder) into the
 * review queue, redacted. A candidate alike in wording to one pending or
 * accepted in the same project for the same person raises that one's `seen`;
 * a rejected one is never queued again. With `autoAccept`, a new candidate of
 * at least that confidence is accepted at once (a `preference` memory on the
 * project; one that cannot be attached yet, a project not indexed, stays
 * pending).
 */
export function queueCandidates(
  j: Journal,
  candidates: readonly Candidate[],
  where: { project: string; author: string; autoAccept: number | null; now?: number },
): QueueReport {
  const now = where.now ?? Date.now();
  const report: QueueReport = { queued: [], repeated: [], accepted: [] };
  for (const c of candidates) {
    // A statement read from a transcript, not typed here: a NUL (which memory refuses, the
    // journal reading text only up to it) is dropped rather than losing the statement.
    const text = cleanText(c.text.replaceAll("\0", ""));
    // Looked up and queued in one transaction: two sessions ending at once queue it once.
    const id = j.tx(() => {
      const known = j.all<QueuedCandidate>(
        "SELECT * FROM personal_candidates WHERE project = ? AND author = ?",
        where.project,
        where.author,
      );
      const same = known.find((k) =>
        k.text === text || trigramSimilarity(k.text, text) >= SAME_STATEMENT
      );
      if (same) {
        if (same.status !== "rejected") {
          j.run("UPDATE personal_candidates SET seen = seen + 1 WHERE id = ?", same.id);
          report.repeated.push(same.id);
        }
        return undefined;
      }
      return j.get<{ id: number }>(
        `INSERT INTO personal_candidates
           (text, kind, confidence, source, project, author, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, 'pending', ?) RETURNING id`,
        text,
        c.kind,
        Math.max(0, Math.min(1, c.confidence)),
        c.source,
        where.project,
        where.author,
        now,
      )!.id;
    });
    if (id === undefined) continue;
    report.queued.push(id);
    if (where.autoAccept !== null && c.confidence >= where.autoAccept) {
      try {
        acceptCandidate(j, id, { author: where.author, now });
        report.accepted.push(id);
      } catch (e) {
        // A project Heimdall does not index yet has nothing to attach it to: it waits for review.
        if (!(e instanceof Error)) throw e;
      }
    }
  }
  return report;
}

/** The queue of `author`, pending first, newest first; `project` narrows it to one repository. */
export function listCandidates(
  j: Journal,
  options: { author: string; project?: string; status?: QueuedCandidate["status"] },
): QueuedCandidate[] {
  return j.all<QueuedCandidate>(
    `SELECT * FROM personal_candidates
     WHERE author = ?1 AND (?2 IS NULL OR project = ?2) AND (?3 IS NULL OR status = ?3)
     ORDER BY status = 'pending' DESC, created_at DESC, id DESC`,
    options.author,
    options.project ?? null,
    options.status ?? null,
  );
}

function candidate(j: Journal, id: number, author: string): QueuedCandidate {
  const c = j.get<QueuedCandidate>(
    "SELECT * FROM personal_candidates WHERE id = ? AND author = ?",
    id,
    author,
  );
  if (!c) {
    throw new MemoryInputError(
      `No candidate ${id} of yours in the review queue; \`heimdall review\` lists them`,
    );
  }
  return c;
}

/**
 * Accepts candidate `id` (optionally with `text` edited): it becomes a
 * private `preference` memory of its author on its project folder. Accepting
 * one already accepted returns its memory id again; one whose memory was
 * forgotten (or superseded by hand) since is recorded anew. The candidate is
 * read again under the write lock, so two processes accepting it at once
 * leave one memory, not two. Throws {@link MemoryInputError} for an unknown
 * id or a rejected one.
 */
export function acceptCandidate(
  j: Journal,
  id: number,
  options: { author: string; text?: string; now?: number },
): string {
  for (;;) {
    const c = candidate(j, id, options.author);
    const held = c.memory_id === null ? undefined : getMemoryRow(j, c.memory_id);
    const current = held !== undefined && held.forgotten_at === null &&
      held.superseded_at === null;
    if (c.status === "accepted" && current && options.text === undefined) return c.memory_id!;
    if (c.status === "rejected") {
      // A rejected statement is never queued again: saying it again would not bring it back.
      throw new MemoryInputError(
        `Candidate ${id} was rejected, and a rejected statement is not queued again; to keep it after all, record it yourself: heimdall remember --kind preference --scope private --about ${c.project} TEXT`,
      );
    }
    const now = options.now ?? Date.now();
    const text = options.text === undefined ? c.text : cleanText(options.text);
    // An edit of an accepted one supersedes its memory; the history keeps both.
    const p = prepareRemember(j, {
      kind: "preference",
      text,
      about: [c.project],
      author: c.author,
      scope: "private",
      cwd: c.project,
      ...(current ? { supersedes: [c.memory_id!] } : {}),
      now,
    });
    const accepted = j.tx(() => {
      // Another process decided it since it was read: look again.
      const again = candidate(j, id, options.author);
      if (again.status !== c.status || again.memory_id !== c.memory_id) return undefined;
      const r = writeRemembered(j, p);
      j.run(
        "UPDATE personal_candidates SET status = 'accepted', text = ?, memory_id = ?, decided_at = ? WHERE id = ?",
        text,
        r.memory.id,
        now,
        id,
      );
      return r.memory.id;
    });
    if (accepted !== undefined) return accepted;
  }
}

/** Rejects candidate `id`: it is never queued again. Throws for an unknown id or an accepted one. */
export function rejectCandidate(
  j: Journal,
  id: number,
  options: { author: string; now?: number },
): void {
  const c = candidate(j, id, options.author);
  if (c.status === "accepted") {
    throw new MemoryInputError(
      `Candidate ${id} is accepted as memory ${c.memory_id}; \`heimdall forget ${c.memory_id}\` removes it`,
    );
  }
  // Only if nobody accepted it since it was read: an accepted one keeps its memory and status.
  const changed = j.run(
    "UPDATE personal_candidates SET status = 'rejected', decided_at = ? WHERE id = ? AND status <> 'accepted'",
    options.now ?? Date.now(),
    id,
  );
  if (changed === 0) rejectCandidate(j, id, options);
}
