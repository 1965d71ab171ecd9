/**
 * One line of the stdio stream as a JSON-RPC 2.0 message, or the error to
 * answer it with (pure). The SDK's own reader throws a zod dump for anything
 * that is JSON but no message, and the line is answered with a parse error
 * whose text is that dump's first line ("["). Here a line that is not JSON
 * gets -32700 Parse error, and JSON that is no message (a batch, a missing
 * `method` or `"jsonrpc": "2.0"`, an id that is neither a string nor an
 * integer) gets -32600 Invalid Request naming what is wrong, with the id of
 * the request when it can be read; a request whose params break what MCP
 * asks of every method's (a `_meta` that is no object) gets -32602 Invalid
 * params naming the param.
 */
// The SDK's schemas sit beside their .js files without the extension (its "./*" export pattern).
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";

/** JSON-RPC: the line is not JSON. */
export const PARSE_ERROR = -32700;
/** JSON-RPC: the JSON is not a request, notification or response. */
export const INVALID_REQUEST = -32600;
/** JSON-RPC: the method's params are wrong. */
export const INVALID_PARAMS = -32602;

/** A request's id as JSON-RPC (and MCP) allow it: a string or an integer. */
export type RequestId = string | number;

/** Why a line is no message: the error to answer with, about request `id` (null when unreadable). */
export interface Unreadable {
  /** The request the error is about, when the line let it be read. */
  id: RequestId | null;
  /** {@link PARSE_ERROR}, {@link INVALID_REQUEST} or {@link INVALID_PARAMS}. */
  code: number;
  /** What is wrong, in one line. */
  message: string;
}

type Obj = Record<string, unknown>;

/** `v` as a plain object, or null for anything else (arrays included). */
export function obj(v: unknown): Obj | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Obj : null;
}

/** True for a valid request id: a string or an integer. */
export function isRequestId(v: unknown): v is RequestId {
  return typeof v === "string" || Number.isSafeInteger(v);
}

/**
 * What sort of JSON value `v` is, for an error message: `null`, `an array`,
 * `a string`, `a number`, `a boolean`, `an object`.
 *
 * @example
 * ```ts
 * import { kindOf } from "./jsonrpc.ts";
 * console.assert(kindOf(null) === "null");
 * console.assert(kindOf([1]) === "an array");
 * ```
 */
export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return "an object";
  }
}

/** `v` quoted for an error message: its kind, and its value when it is short and scalar. */
function shown(v: unknown): string {
  if (typeof v === "number" || typeof v === "boolean") return `${kindOf(v)} (${v})`;
  if (typeof v === "string") {
    return `${kindOf(v)} (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
  }
  return kindOf(v);
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const RESPONSE_KEYS = new Set(["jsonrpc", "id", "result", "error"]);

/**
 * Why JSON value `v` is not a JSON-RPC message this server reads, in one
 * line; undefined when it is one.
 *
 * @example
 * ```ts
 * import { whyNotMessage } from "./jsonrpc.ts";
 * console.assert(whyNotMessage({ jsonrpc: "2.0", id: 1, method: "ping" }) === undefined);
 * console.assert(whyNotMessage({ id: 1, method: "ping" })!.includes('"jsonrpc": "2.0"'));
 * ```
 */
export function whyNotMessage(v: unknown): string | undefined {
  if (Array.isArray(v)) {
    return "a JSON array (a JSON-RPC batch): MCP takes one message per line, each a JSON object";
  }
  const o = obj(v);
  if (o === null) return `a message is a JSON object, not ${shown(v)}`;
  if (o.jsonrpc !== "2.0") {
    return "jsonrpc" in o
      ? `"jsonrpc" must be "2.0", not ${shown(o.jsonrpc)}`
      : `the message lacks "jsonrpc": "2.0"`;
  }
  if ("id" in o && !isRequestId(o.id)) {
    return `"id" must be a string or an integer, not ${shown(o.id)}`;
  }
  if ("method" in o) {
    if (typeof o.method !== "string") return `"method" must be a string, not ${shown(o.method)}`;
    if ("params" in o && obj(o.params) === null) {
      return `the params of ${o.method} must be an object, not ${kindOf(o.params)}`;
    }
    const extra = Object.keys(o).find((k) => !REQUEST_KEYS.has(k));
    if (extra !== undefined) {
      return `unexpected member ${JSON.stringify(extra)} in ${
        "id" in o ? "a request" : "a notification"
      } (it takes jsonrpc, id, method, params)`;
    }
  } else if ("result" in o || "error" in o) {
    if (!("id" in o) && "result" in o) return `a response needs the "id" of its request`;
    const extra = Object.keys(o).find((k) => !RESPONSE_KEYS.has(k));
    if (extra !== undefined) return `unexpected member ${JSON.stringify(extra)} in a response`;
  } else {
    return `the message has no "method" (a request or a notification), nor "result" or "error" (a response)`;
  }
  const parsed = JSONRPCMessageSchema.safeParse(v);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const at = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return `not a JSON-RPC 2.0 request, notification or response${at}`;
}

/** One issue of a zod validation, as the SDK's schemas report it. */
interface Issue {
  path?: (string | number)[];
  message?: string;
  expected?: string;
  code?: string;
  errors?: Issue[][];
}

/**
 * One validation issue in one line, for a person: `_meta.progressToken:
 * expected string or number` (a union's alternatives named, not "Invalid
 * input"); the path is what follows `params`.
 */
export function issueText(issue: Issue): string {
  const path = (issue.path ?? []).slice(issue.path?.[0] === "params" ? 1 : 0).join(".");
  let what = issue.message ?? "invalid";
  if (issue.code === "invalid_union" && Array.isArray(issue.errors)) {
    const expected = [...new Set(issue.errors.flat().map((e) => e.expected).filter(Boolean))];
    if (expected.length > 0) what = `expected ${expected.join(" or ")}`;
  }
  return path === "" ? what : `${path}: ${what}`;
}

/**
 * Why the params of request or notification `v` (a JSON-RPC shape, see
 * {@link whyNotMessage}) break MCP's rules for every method (`_meta` an
 * object, its `progressToken` a string or a number), in one line; undefined
 * when they do not.
 */
function paramsIssue(v: Obj): string | undefined {
  const schema = "id" in v ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  const parsed = schema.safeParse(v);
  const issue = parsed.success ? undefined : parsed.error.issues[0] as Issue | undefined;
  return issue?.path?.[0] === "params" ? issueText(issue) : undefined;
}

/**
 * Reads one line (without its newline) as a message. A line that is not
 * JSON gives {@link PARSE_ERROR} with the parser's message; JSON that is no
 * message gives {@link INVALID_REQUEST} with {@link whyNotMessage}'s reason
 * and the line's `id` when it is a valid one.
 *
 * @example
 * ```ts
 * import { INVALID_REQUEST, readMessage } from "./jsonrpc.ts";
 * const r = readMessage('{"jsonrpc":"2.0","id":3}');
 * console.assert("error" in r && r.error.code === INVALID_REQUEST && r.error.id === 3);
 * ```
 */
export function readMessage(line: string): { message: JSONRPCMessage } | { error: Unreadable } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    return {
      error: { id: null, code: PARSE_ERROR, message: `Parse error: ${(e as Error).message}` },
    };
  }
  const parsed = JSONRPCMessageSchema.safeParse(v);
  if (parsed.success) return { message: parsed.data as JSONRPCMessage };
  const o = obj(v);
  const id = o?.id;
  // A well-formed request whose params break MCP's common rules: its params are wrong, not it.
  const why = whyNotMessage(v);
  const params = o !== null && typeof o.method === "string" && why?.startsWith("not a JSON-RPC")
    ? paramsIssue(o)
    : undefined;
  if (params !== undefined) {
    return {
      error: {
        id: isRequestId(id) ? id : null,
        code: INVALID_PARAMS,
        message: `Invalid params of ${o!.method}: ${params}`,
      },
    };
  }
  return {
    error: {
      id: isRequestId(id) ? id : null,
      code: INVALID_REQUEST,
      message: `Invalid Request: ${why ?? "not a JSON-RPC 2.0 message"}`,
    },
  };
}
