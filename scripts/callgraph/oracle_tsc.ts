/**
 * The TypeScript compiler's answer for every call in a project: run as its
 * own process (`deno run --no-lock --allow-read --allow-env --allow-sys
 * scripts/callgraph/oracle_tsc.ts ROOT`), it builds one program of the
 * `.ts`/`.tsx` files under ROOT with `typescript` 5 and prints, one JSON
 * line per call or `new` expression whose callee is a name or `x.name`, the
 * declarations the checker gives for that name (`getSymbolAtLocation`,
 * aliases followed): `{file, line, name, targets, external}` where `line`
 * is the 1-based line of the callee's name, `targets` the declarations
 * under ROOT (`{file, line, name}`, line of the declaration's name) and
 * `external` whether some declaration lies outside (the standard library,
 * a package). A call the checker cannot place has neither.
 *
 * The compiler is loaded by a computed specifier under `--no-lock`, so the
 * project's lockfile and `deno check` never see it. Cost: one full type
 * check of the project (a few seconds for 10,000 lines).
 */
import { join, relative } from "node:path";

/** The pinned compiler: a 5.x release with the JavaScript compiler API. */
export const TYPESCRIPT = "npm:typescript@5.9.3";

// deno-lint-ignore no-explicit-any
type Any = any;

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.name === "node_modules" || e.name.startsWith(".")) continue;
      const p = join(dir, e.name);
      if (e.isDirectory) walk(p);
      else if (/\.(ts|tsx|mts|cts)$/.test(e.name)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

async function main(root: string): Promise<void> {
  const spec = TYPESCRIPT;
  const ts: Any = (await import(spec)).default;
  const files = sourceFiles(root);
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    jsx: ts.JsxEmit.Preserve,
    noEmit: true,
    skipLibCheck: true,
    experimentalDecorators: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const lines: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || relative(root, sf.fileName).startsWith("..")) continue;
    const file = relative(root, sf.fileName);
    const visit = (node: Any): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const callee = node.expression;
        const nameNode = ts.isIdentifier(callee)
          ? callee
          : ts.isPropertyAccessExpression(callee)
          ? callee.name
          : undefined;
        if (nameNode && ts.isIdentifier(nameNode)) {
          const line = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).line + 1;
          let symbol = checker.getSymbolAtLocation(nameNode);
          if (symbol && symbol.flags & ts.SymbolFlags.Alias) {
            try {
              symbol = checker.getAliasedSymbol(symbol);
            } catch { /* an alias of nothing */ }
          }
          const targets: { file: string; line: number; name: string }[] = [];
          let external = false;
          for (const decl of symbol?.declarations ?? []) {
            const dsf = decl.getSourceFile();
            const rel = relative(root, dsf.fileName);
            if (rel.startsWith("..") || dsf.isDeclarationFile) {
              external = true;
              continue;
            }
            const named = ts.getNameOfDeclaration(decl) ?? decl;
            targets.push({
              file: rel,
              line: dsf.getLineAndCharacterOfPosition(named.getStart(dsf)).line + 1,
              name: named.getText(dsf),
            });
          }
          lines.push(JSON.stringify({ file, line, name: nameNode.text, targets, external }));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  console.log(lines.join("\n"));
}

if (import.meta.main) {
  const root = Deno.args[0];
  if (!root) {
    console.error("usage: oracle_tsc.ts ROOT");
    Deno.exit(2);
  }
  await main(root);
}
