/**
 * Writes the Homebrew tap's formula (`Formula/heimdall.rb`) for a release from
 * its `SHA256SUMS`: the binary is the formula's payload (no bottles), one
 * archive per macOS and Linux architecture.
 *
 *   deno run -A scripts/homebrew_formula.ts --sums dist/release/SHA256SUMS \
 *     [--version 0.1.0] [--repo owner/name] [--base-url URL] [--out Formula/heimdall.rb]
 *
 * The base URL defaults to the GitHub release of the version. Exits 2 when
 * SHA256SUMS lacks an archive the formula needs, naming it.
 */
import { parseScriptArgs } from "./script_args.ts";
import { archiveName } from "./release_archive.ts";

/** The four archives a formula points at, by Homebrew's OS block and CPU. */
const FORMULA_TARGETS = {
  macos: { arm: "aarch64-apple-darwin", intel: "x86_64-apple-darwin" },
  linux: { arm: "aarch64-unknown-linux-gnu", intel: "x86_64-unknown-linux-gnu" },
} as const;

/** What a formula is made from. */
export interface FormulaInput {
  version: string;
  /** Where the archives are: `<baseUrl>/<archive name>`. */
  baseUrl: string;
  homepage: string;
  /** The text of SHA256SUMS. */
  sums: string;
}

/** A formula needs an archive SHA256SUMS does not list. */
export class MissingArchiveError extends Error {
  constructor(readonly archive: string) {
    super(
      `SHA256SUMS lists no "${archive}"; build and pack that target (scripts/release.ts) or fix --version`,
    );
    this.name = "MissingArchiveError";
  }
}

/** Parses SHA256SUMS (`<hex>  <name>` lines) into name → hex. */
export function parseSums(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line.trim());
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

/** A Ruby double-quoted string literal. */
function rb(s: string): string {
  return `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("#", "\\#")}"`;
}

/** The formula's Ruby source. Throws MissingArchiveError when an archive is not in the sums. */
export function homebrewFormula(input: FormulaInput): string {
  const sums = parseSums(input.sums);
  const base = input.baseUrl.replace(/\/+$/, "");
  const pick = (target: string, indent: string) => {
    const name = archiveName(input.version, target);
    const sha = sums.get(name);
    if (sha === undefined) throw new MissingArchiveError(name);
    return [`${indent}url ${rb(`${base}/${name}`)}`, `${indent}sha256 ${rb(sha)}`];
  };
  const block = (os: "macos" | "linux") => [
    `  on_${os} do`,
    "    if Hardware::CPU.arm?",
    ...pick(FORMULA_TARGETS[os].arm, "      "),
    "    else",
    ...pick(FORMULA_TARGETS[os].intel, "      "),
    "    end",
    "  end",
  ];
  return [
    "# Written by scripts/homebrew_formula.ts from the release's SHA256SUMS; regenerate, do not edit.",
    "class Heimdall < Formula",
    `  desc ${rb("Persistent, cross-repository memory for AI coding agents")}`,
    `  homepage ${rb(input.homepage)}`,
    `  version ${rb(input.version)}`,
    "",
    ...block("macos"),
    "",
    ...block("linux"),
    "",
    "  def install",
    `    bin.install "heimdall"`,
    "  end",
    "",
    "  def caveats",
    "    <<~EOS",
    "      Keep the index current in the background with:",
    "        heimdall service install",
    "    EOS",
    "  end",
    "",
    "  test do",
    `    assert_match version.to_s, shell_output("#{bin}/heimdall --version")`,
    "  end",
    "end",
    "",
  ].join("\n");
}

if (import.meta.main) {
  const { values } = parseScriptArgs(
    "homebrew_formula",
    "deno run -A scripts/homebrew_formula.ts --sums PATH [--version V] [--repo OWNER/NAME] [--base-url URL] [--out FILE]",
    {
      args: Deno.args,
      options: {
        sums: { type: "string" },
        version: { type: "string" },
        repo: { type: "string", default: "heimdall-dev/heimdall" },
        "base-url": { type: "string" },
        out: { type: "string" },
      },
    },
  );
  if (!values.sums) {
    console.error("homebrew_formula: --sums PATH/TO/SHA256SUMS is required");
    Deno.exit(2);
  }
  const version = (values.version ??
    JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url))).version)
    .replace(/^v/, "");
  try {
    const text = homebrewFormula({
      version,
      baseUrl: values["base-url"] ??
        `https://github.com/${values.repo}/releases/download/v${version}`,
      homepage: `https://github.com/${values.repo}`,
      sums: Deno.readTextFileSync(values.sums),
    });
    if (values.out) Deno.writeTextFileSync(values.out, text);
    else console.log(text.trimEnd());
  } catch (e) {
    if (!(e instanceof MissingArchiveError)) throw e;
    console.error(`homebrew_formula: ${e.message}`);
    Deno.exit(2);
  }
}
