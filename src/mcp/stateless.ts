/**
 * The stateless MCP revision 2026-07-28, on top of the SDK (which speaks the
 * `initialize` era: 2025-06-18, 2025-11-25 and older).
 *
 * A request of the new revision carries its protocol version and client
 * capabilities in `params._meta` (`io.modelcontextprotocol/protocolVersion`,
 * `io.modelcontextprotocol/clientCapabilities`) and needs no handshake. This
 * transport wrapper sits between the stdio transport and the SDK server and
 * adds exactly what the SDK lacks:
 *
 * - `server/discover`, answered here (the versions a request may name,
 *   capabilities, instructions, caching hints, server info);
 * - per-request `_meta`: a version other than {@link STATELESS_VERSION} gets
 *   error -32022 with `{supported, requested}` (the initialize era's
 *   versions are negotiated by `initialize`, never named per request);
 *   missing client capabilities get -32602; everything else goes on to the
 *   SDK's handlers unchanged;
 * - the result envelope of the new revision on those requests' answers:
 *   `resultType: "complete"`, the server's identity in `_meta`, and
 *   `ttlMs`/`cacheScope` on `tools/list`.
 *
 * Requests without the new `_meta` keys are the old era and pass through
 * untouched, so one stdio server answers both.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
import { INVALID_PARAMS, issueText, kindOf, obj } from "./jsonrpc.ts";

/** The stateless revision. */
export const STATELESS_VERSION = "2026-07-28";
/** Every revision this server answers (newest first): the stateless one, then the `initialize` era's. */
export const SUPPORTED_VERSIONS = [STATELESS_VERSION, "2025-11-25", "2025-06-18"];
/**
 * The revisions a request may name in its `_meta`, without a handshake:
 * what `server/discover` lists and what error -32022 offers. The others of
 * {@link SUPPORTED_VERSIONS} are reached through `initialize` only.
 */
export const REQUEST_VERSIONS = [STATELESS_VERSION];

const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/**
 * Error codes of the 2026-07-28 schema.
 *
 * Named only inside this folder (the server and its tools).
 *
 * @internal
 */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * Why a `tools/call`'s params are not a call at all (no tool name, a name
 * none of `tools` has, arguments that are not an object), in one line;
 * undefined when they are. The SDK would answer -32603 with its validator's
 * dump, and an unknown tool with an isError result, where MCP wants a
 * JSON-RPC error (-32602) for both.
 */
function badToolCall(params: unknown, tools: readonly string[]): string | undefined {
  const p = obj(params);
  if (p === null) return "Invalid params: tools/call takes an object {name, arguments}";
  if (typeof p.name !== "string" || p.name === "") {
    return "Invalid params: tools/call needs the tool's name as a string (see tools/list)";
  }
  if (tools.length > 0 && !tools.includes(p.name)) {
    return `Unknown tool ${JSON.stringify(p.name)}: the tools are ${
      tools.join(", ")
    } (tools/list describes them)`;
  }
  if (p.arguments !== undefined && obj(p.arguments) === null) {
    return `Invalid params: the arguments of ${p.name} must be an object, not ${
      kindOf(p.arguments)
    }`;
  }
  return undefined;
}

/** JSON-RPC: what the SDK answers when a request's params fail its schema (with the schema's dump). */
const INTERNAL_ERROR = -32603;

/**
 * The SDK's answer to params its schema refused (-32603, the message a zod
 * issue list as JSON) as what it is: -32602 naming the params of `method`,
 * in one line. Any other error as it is.
 */
function paramsError(error: Obj, method: string): Obj {
  if (error.code !== INTERNAL_ERROR || typeof error.message !== "string") return error;
  let issues: unknown;
  try {
    issues = JSON.parse(error.message);
  } catch {
    return error;
  }
  if (!Array.isArray(issues) || issues.length === 0) return error;
  if (!issues.every((i) => Array.isArray(obj(i)?.path) && typeof obj(i)?.message === "string")) {
    return error;
  }
  return {
    code: INVALID_PARAMS,
    message: `Invalid params of ${method}: ${issues.map((i) => issueText(i)).join("; ")}`,
  };
}

/** The -32022 message for `version` named in a request's `_meta`. */
function unsupportedText(version: string): string {
  const initializeOnly = SUPPORTED_VERSIONS.includes(version) &&
    !REQUEST_VERSIONS.includes(version);
  return initializeOnly
    ? `Unsupported protocol version "${version}" in a request's _meta: requests without a handshake speak ${
      REQUEST_VERSIONS.join(", ")
    }; ${version} is negotiated with initialize`
    : `Unsupported protocol version "${version}": requests without a handshake speak ${
      REQUEST_VERSIONS.join(", ")
    }`;
}

/**
 * What `server/discover` tells a client.
 *
 * @internal
 */
export interface DiscoverInfo {
  serverInfo: { name: string; version: string; title?: string };
  capabilities: Record<string, unknown>;
  instructions: string;
  /** How long a client may cache `server/discover` and `tools/list` (ms). */
  ttlMs: number;
}

type Obj = Record<string, unknown>;

/**
 * Wraps a transport so the SDK server behind it also speaks 2026-07-28.
 * Install the SDK server on the wrapper (`server.connect(wrapper)`).
 *
 * Named only inside this folder (the server and its tools).
 *
 * @internal
 */
export class StatelessBridge implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: unknown) => void;
  /** Ids of stateless requests in flight → their method. */
  readonly #pending = new Map<string | number, string>();
  /** Ids of every request the SDK answers → its method. */
  readonly #asked = new Map<string | number, string>();

  /**
   * Wraps `inner`; `info` is what `server/discover` says. A `tools/call`
   * naming none of `tools` is refused with -32602 (any name passes when it
   * is empty).
   */
  constructor(
    readonly inner: Transport,
    readonly info: DiscoverInfo,
    readonly tools: readonly string[] = [],
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (m, extra) => this.#receive(m, extra);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    let m = message as Obj;
    if ("id" in m && ("result" in m || "error" in m)) {
      const id = m.id as string | number;
      const asked = this.#asked.get(id);
      this.#asked.delete(id);
      const error = obj(m.error);
      if (asked !== undefined && error !== null) {
        m = { ...m, error: paramsError(error, asked) };
        message = m as JSONRPCMessage;
      }
      const method = this.#pending.get(id);
      if (method !== undefined) {
        this.#pending.delete(id);
        if ("result" in m) {
          const result = { ...(obj(m.result) ?? {}) };
          result.resultType ??= "complete";
          result._meta = { ...(obj(result._meta) ?? {}), [META_SERVER_INFO]: this.info.serverInfo };
          if (method === "tools/list") {
            result.ttlMs ??= this.info.ttlMs;
            result.cacheScope ??= "public";
          }
          return this.inner.send({ ...m, result } as JSONRPCMessage, options);
        }
      }
    }
    return this.inner.send(message, options);
  }

  #reply(id: string | number, body: { result: Obj } | { error: Obj }): void {
    this.inner.send({ jsonrpc: "2.0", id, ...body } as JSONRPCMessage).catch((e) =>
      this.onerror?.(e)
    );
  }

  #receive(message: JSONRPCMessage, extra: unknown): void {
    const m = message as Obj;
    const method = typeof m.method === "string" ? m.method : null;
    const isRequest = method !== null && "id" in m;
    const bad = isRequest && method === "tools/call"
      ? badToolCall(m.params, this.tools)
      : undefined;
    if (bad !== undefined) {
      this.#reply(m.id as string | number, { error: { code: INVALID_PARAMS, message: bad } });
      return;
    }
    const meta = obj(obj(m.params)?._meta);
    const version = meta?.[META_VERSION];
    if (!isRequest || (version === undefined && method !== "server/discover")) {
      if (isRequest) this.#asked.set(m.id as string | number, method);
      this.onmessage?.(message, extra);
      return;
    }
    const id = m.id as string | number;
    if (version !== undefined && !REQUEST_VERSIONS.includes(version as string)) {
      this.#reply(id, {
        error: {
          code: UNSUPPORTED_PROTOCOL_VERSION,
          message: unsupportedText(String(version)),
          data: { supported: REQUEST_VERSIONS, requested: String(version) },
        },
      });
      return;
    }
    if (version !== undefined && obj(meta?.[META_CAPABILITIES]) === null) {
      this.#reply(id, {
        error: {
          code: INVALID_PARAMS,
          message:
            `Missing _meta["${META_CAPABILITIES}"]: every ${STATELESS_VERSION} request declares the client's capabilities`,
        },
      });
      return;
    }
    if (method === "server/discover") {
      this.#reply(id, {
        result: {
          resultType: "complete",
          supportedVersions: REQUEST_VERSIONS,
          capabilities: this.info.capabilities,
          instructions: this.info.instructions,
          ttlMs: this.info.ttlMs,
          cacheScope: "public",
          _meta: { [META_SERVER_INFO]: this.info.serverInfo },
        },
      });
      return;
    }
    this.#pending.set(id, method!);
    this.#asked.set(id, method!);
    this.onmessage?.(message, extra);
  }
}
