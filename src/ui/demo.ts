/**
 * `heimdall ui --demo`: a scripted three-developer scenario, after
 * Hivemind's write-up — a task, a claim, a conflict two calls away, a
 * repeated failure, a fix that resolves it, a superseding decision, a
 * hand-off — played one step at a time into a throwaway home.
 *
 * Data only: the repository's files and each step as a `heimdall` command
 * line with the person acting. `{task}` and `{decision}` stand for ids an
 * earlier step printed (its `--json` answer). The command layer runs them.
 */

/** One step of the scenario. */
export interface DemoStep {
  title: string;
  /** Who acts ($HEIMDALL_AUTHOR while it runs). */
  who: string;
  /** The `heimdall` command line, with `{task}` / `{decision}` placeholders. */
  args: string[];
  /** Which id this step's JSON answer provides to later steps. */
  provides?: "task" | "decision";
}

/** Where a demo stands, for the page's step bar. */
export interface DemoState {
  /** The throwaway home the demo plays in. */
  home: string;
  /** Every step: its title, who acts, and whether it has been played. */
  steps: { title: string; who: string; done: boolean }[];
  /** The index of the next step to play (the number played so far). */
  next: number;
  /** The last step's output or error, for a person. */
  last: string;
}

/** The repository the demo indexes. */
export const DEMO_FILES: Record<string, string> = {
  "src/api.ts": `import { validate } from "./validate.ts";

/** Answers one request. */
export function handleRequest(body: string): string {
  return validate(body) ? "ok" : "bad";
}
`,
  "src/validate.ts": `import { parseInput } from "./parse.ts";

/** Whether a body is acceptable. */
export function validate(body: string): boolean {
  return parseInput(body).length > 0;
}
`,
  "src/parse.ts": `/** Splits a body into fields. */
export function parseInput(body: string): string[] {
  return body.split(",").filter((f) => f !== "");
}
`,
  "src/render.ts": `/** Draws the page. */
export function renderPage(title: string): string {
  return "<h1>" + title + "</h1>";
}
`,
  "src/main.ts": `import { handleRequest } from "./api.ts";
import { renderPage } from "./render.ts";

/** Starts everything. */
export function main(): void {
  renderPage("home");
  handleRequest("a,b");
}
`,
  "README.md": "# shop\n\nThe demo repository of `heimdall ui --demo`.\n",
};

/** Bob records his change to parseInput failing parse_empty; a second time counts it again (×2). */
const bobFailsParseEmpty = (title: string): DemoStep => ({
  title,
  who: "bob",
  args: [
    "attempt",
    "--about",
    "src/parse.ts:parseInput",
    "--failed",
    "--tests",
    "parse_empty",
    "parseInput crashes on an empty body",
  ],
});

/** `who` records a decision on validate(): `rest` is the flags and the decision's text. */
const decidesOnValidate = (who: string, title: string, rest: string[]): DemoStep => ({
  title,
  who,
  args: ["remember", "--kind", "decision", "--about", "src/validate.ts:validate", ...rest],
});

/** The scenario, in order. */
export const DEMO_STEPS: DemoStep[] = [
  {
    title: "Carol starts a task: harden request parsing",
    who: "carol",
    args: ["task", "start", "Harden request parsing", "--json"],
    provides: "task",
  },
  {
    title: "Alice claims handleRequest",
    who: "alice",
    args: ["claim", "src/api.ts:handleRequest", "--ttl", "1d"],
  },
  {
    title: "Bob claims parseInput — two calls below Alice's claim: a conflict",
    who: "bob",
    args: ["claim", "src/parse.ts:parseInput", "--ttl", "1d"],
  },
  bobFailsParseEmpty("Bob's change to parseInput fails parse_empty"),
  bobFailsParseEmpty("It fails again: the same failure, counted ×2"),
  {
    title: "Bob's fix passes and resolves the failure",
    who: "bob",
    args: [
      "attempt",
      "--about",
      "src/parse.ts:parseInput",
      "--passed",
      "--tests",
      "parse_empty",
      "--fix",
      "a1b2c3d",
      "Reject an empty body before splitting it",
    ],
  },
  {
    ...decidesOnValidate("alice", "Alice decides: validate with hand-written checks", [
      "--json",
      "Validate request bodies with hand-written checks",
    ]),
    provides: "decision",
  },
  decidesOnValidate("bob", "Bob's decision supersedes it: use a schema library", [
    "--supersedes",
    "{decision}",
    "Validate request bodies with a schema library",
  ]),
  {
    title: "Carol hands the task to Bob",
    who: "carol",
    args: ["task", "handoff", "{task}", "--to", "bob", "--note", "parsing is yours now"],
  },
];

/** A step's command line with the ids known so far filled in. */
export function fillStep(step: DemoStep, ids: { task?: string; decision?: string }): string[] {
  return step.args.map((a) =>
    a.replaceAll("{task}", ids.task ?? "{task}").replaceAll(
      "{decision}",
      ids.decision ?? "{decision}",
    )
  );
}

/** The id a step's JSON answer carries (a task's or a memory's). */
export function idFrom(output: string, what: "task" | "decision"): string | undefined {
  try {
    const v = JSON.parse(output);
    return what === "task" ? (v.task ?? v).id : v.memory?.id;
  } catch {
    return undefined;
  }
}
