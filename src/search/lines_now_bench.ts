/**
 * Placing the symbols of a changed file: a file of 3,000 functions, each
 * renamed since it was indexed (nothing to find: every symbol's name and
 * signature are on no line), and the same file with 40 lines inserted on
 * top (everything found, moved).
 *
 *     deno bench src/search/lines_now_bench.ts
 */
import { definitionLines } from "./lines_now.ts";

const N = 3000;
const indexed = Array.from({ length: N }, (_, i) => ({
  id: i,
  signature: `def handler_${i}(request, response):`,
  line: 1 + 4 * i,
  name: `handler_${i}`,
}));
const body = (name: (i: number) => string) =>
  Array.from({ length: N }, (_, i) => [
    `def ${name(i)}(request, response):`,
    `    """Handle request ${i}."""`,
    `    return request + ${i}`,
    "",
  ]).flat();

Deno.bench("definitionLines: 3,000 functions renamed", () => {
  // A new array each time: what one search reads of the file.
  definitionLines([...body((i) => `renamed_${i}`)], indexed);
});

Deno.bench("definitionLines: 3,000 functions moved down 40 lines", () => {
  definitionLines([...Array(40).fill("# pad"), ...body((i) => `handler_${i}`)], indexed);
});
