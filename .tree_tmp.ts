import { GrammarStore } from "./src/extract/grammars.ts";
const [lang, file] = Deno.args;
const g = await new GrammarStore().load(lang!);
const tree = g.parser.parse(Deno.readTextFileSync(file!))!;
console.log(tree.rootNode.toString());
