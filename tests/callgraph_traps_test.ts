/**
 * The call graph never guesses: one small repository per language
 * (`tests/fixtures/callgraph/traps/`), indexed with real tree-sitter
 * extraction and real resolution, holds the traps of issue 13 — a method
 * called on a receiver of unknown type, `self.m()` landing on the class's
 * method or its base's, builtin names with a namesake in the repository, a
 * receiver constructed or annotated in the same definition, a parameter or
 * variable named like an import or a function (`def f(config):
 * config.load()`, `cb()`), a C `static` function of another file, a name
 * bound by an import's alias (`from .util import shared as common`). Every
 * resolved call is listed; a call not listed stays pending with its name.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { defaultConfig, homePaths } from "../src/config/mod.ts";
import { createExtractor } from "../src/extract/mod.ts";
import { Reconciler } from "../src/reconcile/reconciler.ts";
import { blastRadius, callers, callNeighbourIds, findSymbol } from "../src/search/mod.ts";
import { sameMethod } from "../src/search/graph_query.ts";
import { Journal } from "../src/store/mod.ts";
import { withTempDir } from "./helpers.ts";

const FIXTURE = new URL("./fixtures/callgraph/traps/", import.meta.url).pathname;

/** Every resolved call, as "file:caller -> file:callee (how)". */
const EXPECTED = [
  // C: parameters holding function pointers never call util.c's util_run
  // nor the file's cmp.
  "c/hooks.c:direct -> c/hooks.c:cmp (same-file)",
  // A K&R definition (kr.c's kr_sum) is no prototype: its own file's call runs it, never kr.h's
  // #define of its name; kr_use.c's call, for which both are candidates, stays pending.
  "c/kr.c:kr_add3 -> c/kr.c:kr_sum (same-file)",
  // C: a function pointer and the C library's printf stay unresolved.
  "c/main.c:main -> c/main.c:local_helper (same-file)",
  "c/main.c:main -> c/util.c:util_run (unique)",
  // A prototype (util.h's, proto.c's own) is no definition: the call runs util.c's.
  "c/proto.c:twice -> c/util.c:util_run (unique)",
  // secret.c's static hidden() is that file's own: hooks.c's call of it stays pending.
  "c/secret.c:expose -> c/secret.c:hidden (same-file)",
  // C++ inline in a header (read as C++, named C): its own class's methods and its base's.
  "cpp/include/widget.h:ui.Widget.empty -> cpp/include/widget.h:ui.Widget.size (member)",
  "cpp/include/widget.h:ui.Widget.reset -> cpp/include/widget.h:ui.Frame.repaint (member)",
  "cpp/include/widget.h:ui.Widget.reset -> cpp/include/widget.h:ui.Widget.size (member)",
  // A bare call in a namespace: its own function.
  "cpp/mathx.cpp:mathx.clamp -> cpp/mathx.cpp:mathx.hidden (member)",
  // A class named in a namespace is the namespace's own, not a top-level one of its name.
  "cpp/scoped.cpp:inner.fill -> cpp/scoped.cpp:inner.Cache.put (member)",
  // C++: own method called bare, `this->` through the base, declared and constructed receivers.
  "cpp/store.cpp:Store.put -> cpp/store.cpp:Base.close (member)",
  "cpp/store.cpp:Store.put -> cpp/store.cpp:Store.check (member)",
  "cpp/store.cpp:run -> cpp/store.cpp:Store (same-file)",
  "cpp/store.cpp:run -> cpp/store.cpp:Store.check (member)",
  "cpp/store.cpp:run -> cpp/store.cpp:Store.put (member)",
  // C++: a namespace opened by a header and a source: its definition, else the header's.
  "cpp/use_math.cpp:scale -> cpp/include/mathx.h:mathx.twice (member)",
  "cpp/use_math.cpp:scale -> cpp/mathx.cpp:mathx.clamp (member)",
  // C++ defined out of line: the class its name gives (in a header), its base; Log's flush stays pending.
  "cpp/widget.cpp:ui.Widget.open -> cpp/include/widget.h:ui.Frame.repaint (member)",
  "cpp/widget.cpp:ui.Widget.open -> cpp/include/widget.h:ui.Widget.close (member)",
  "cpp/widget.cpp:ui.Widget.open -> cpp/include/widget.h:ui.Widget.size (member)",
  "cpp/widget.cpp:ui.Widget.open -> cpp/widget.cpp:ui.trace (same-file)",
  // C#: a partial class's members in its other part's file.
  "cs/Form.cs:Acme.Form.Form -> cs/Form.Designer.cs:Acme.Form.Arrange (member)",
  "cs/Form.cs:Acme.Form.Form -> cs/Form.Designer.cs:Acme.Form.InitializeComponent (member)",
  // C#: a local named like a type hides no type.
  "cs/Named.cs:Acme.Desk.Use -> cs/Named.cs:Acme.Pen.Write (member)",
  // C#: a namespace's own class, whatever namespace follows.
  "cs/Scoped.cs:Inner.Filler.Fill -> cs/Scoped.cs:Inner.Shelf (same-file)",
  "cs/Scoped.cs:Inner.Filler.Fill -> cs/Scoped.cs:Inner.Shelf.Put (member)",
  // C#: Console and an unknown `log` stay unresolved.
  // C#: a property's code is the property's.
  // C#: a Timer of the repository where a using brings its namespace.
  "cs/Screen.cs:Acme.App.Screen.Show -> cs/Ui.cs:Acme.Ui.Timer (unique)",
  "cs/Screen.cs:Acme.App.Screen.Show -> cs/Ui.cs:Acme.Ui.Timer.Start (member)",
  "cs/Shape.cs:Acme.Shape.Area -> cs/Shape.cs:Acme.Shape.Measure (member)",
  "cs/Shape.cs:Acme.Shape.Half -> cs/Shape.cs:Acme.Shape.Measure (member)",
  // C#: `using static Acme.Util.Paths;` brings Paths' static methods, not a namesake's.
  "cs/Static.cs:Acme.App.Joiner.Run -> cs/Disk.cs:Acme.Fs.Disk.Size (import)",
  "cs/Static.cs:Acme.App.Joiner.Run -> cs/Paths.cs:Acme.Util.Paths.Clean (import)",
  "cs/Static.cs:Acme.App.Joiner.Run -> cs/Paths.cs:Acme.Util.Paths.Join (import)",
  "cs/Store.cs:Acme.Store.Main -> cs/Store.cs:Acme.Store (same-file)",
  "cs/Store.cs:Acme.Store.Main -> cs/Store.cs:Acme.Store.Put (member)",
  "cs/Store.cs:Acme.Store.Put -> cs/Store.cs:Acme.Base.Close (member)",
  "cs/Store.cs:Acme.Store.Put -> cs/Store.cs:Acme.Store.Check (member)",
  // C#: of two classes named Shelf, the one a `using` imports.
  "cs/UseShelf.cs:Third.Picker.Pick -> cs/Scoped.cs:Outer.Shelf (unique)",
  "cs/UseShelf.cs:Third.Picker.Pick -> cs/Scoped.cs:Outer.Shelf.Get (member)",
  // C#: `using P = Acme.Util.Paths;` is Paths, wherever its file lies, in any order.
  "cs/Using.cs:Acme.App.Aliased.Run -> cs/Paths.cs:Acme.Other.Strings.Trim (import)",
  "cs/Using.cs:Acme.App.Aliased.Run -> cs/Paths.cs:Acme.Util.Paths (import)",
  "cs/Using.cs:Acme.App.Aliased.Run -> cs/Paths.cs:Acme.Util.Paths.Join (import)",
  // A delegate parameter named like the method: only Other() calls the method.
  "cs/Worker.cs:Acme.Worker.Other -> cs/Worker.cs:Acme.Worker.handler (member)",
  // Go: the package's own helper (util has one too), a receiver's method.
  // An import of a folder is its package's, never its external test's.
  "go/app/use.go:Use -> go/store/store.go:New (import)",
  // A file kept out of the build (package main) and an internal test:
  // each its package's own, though they share one folder.
  "go/store/gen.go:main -> go/store/gen.go:helper (same-file)",
  "go/store/other.go:Other -> go/store/store.go:helper (unique)",
  "go/store/store.go:New -> go/store/store.go:Store (same-file)",
  "go/store/store.go:New -> go/store/store.go:Store.lock (member)",
  "go/store/store.go:Store.Get -> go/store/store.go:Store.lock (member)",
  "go/store/store_test.go:TestHelper -> go/store/store.go:New (unique)",
  "go/store/store_test.go:TestHelper -> go/store/store.go:helper (unique)",
  // Java: a static import is a member of its class, never a namesake of its package.
  "java/com/acme/Clean.java:Clean.run -> java/com/acme/Strings.java:Strings.trim (import)",
  // Java: own method bare, the base's through `this`, a declared receiver.
  "java/com/acme/Store.java:Store.get -> java/com/acme/Base.java:Base.load (member)",
  "java/com/acme/Store.java:Store.get -> java/com/acme/Store.java:Store.check (member)",
  "java/com/acme/Store.java:Store.main -> java/com/acme/Store.java:Store (same-file)",
  "java/com/acme/Store.java:Store.main -> java/com/acme/Store.java:Store.get (member)",
  // Java: an anonymous class's own method first, then its outer class's.
  "java/com/acme/Timer.java:Timer.start.new.run -> java/com/acme/Timer.java:Timer.start.new.stop (member)",
  "java/com/acme/Timer.java:Timer.start.new.run -> java/com/acme/Timer.java:Timer.tick (member)",
  // Java: of two copies of a package, the importer's own source set's.
  "java/flavor/main/com/shop/App.java:App.run -> java/flavor/main/com/shop/util/Text.java:Text.trim (import)",
  // JavaScript (scripts sharing globals): console, Object and parseInt are the platform's.
  "js/app.js:Store.get -> js/app.js:Store.load (member)",
  // An arrow function's `this` is its method's; a `function`'s and an object literal method's are not.
  "js/app.js:Store.later -> js/app.js:Store.get (member)",
  // Two `new Store()` in main are one edge: the graph is symbol to symbol.
  "js/app.js:main -> js/app.js:Store (same-file)",
  "js/app.js:main -> js/app.js:Store.get (member)",
  "js/app.js:main -> js/app.js:Store.load (member)",
  "js/app.js:main -> js/logger.js:setup (unique)",
  // A parameter named like an import: run(setup) calls what it is given.
  "js/hooks.js:go -> js/logger.js:setup (import)",
  "js/logger.js:setup -> js/logger.js:Logger (same-file)",
  // A script's global (one an IIFE makes with `window.values = values`), never the function
  // nested in one.
  "js/page.js:render -> js/bundle.js:values (unique)",
  "js/page.js:render -> js/widgets.js:mount (unique)",
  // `exports.tidy = tidy` exports the function: calls land on it, in its file and through require.
  "js/shared.js:clean -> js/shared.js:tidy (same-file)",
  "js/use.js:run -> js/shared.js:tidy (import)",
  // A callback's own function, called in it.
  "js/widgets.js: -> js/widgets.js:layout (same-file)",
  // PHP: files not laid out by namespace: a `use` names what its namespace
  // declares (Vendor\\Kv's, never Other\\Kv's), under an alias too.
  "php/flat/bucket.php:Bucket.open -> php/flat/bucket.php:Bucket (same-file)",
  "php/flat/bucket.php:connect -> php/flat/bucket.php:Bucket.open (member)",
  "php/flat/client.php:store -> php/flat/bucket.php:Bucket (import)",
  "php/flat/client.php:store -> php/flat/bucket.php:Bucket (import)",
  "php/flat/client.php:store -> php/flat/bucket.php:Bucket.open (import)",
  "php/flat/client.php:store -> php/flat/bucket.php:Bucket.put (import)",
  "php/flat/client.php:store -> php/flat/bucket.php:Bucket.put (import)",
  "php/flat/client.php:store -> php/flat/bucket.php:connect (import)",
  "php/flat/decoy.php:Bucket.open -> php/flat/decoy.php:Bucket (same-file)",
  "php/flat/decoy.php:connect -> php/flat/decoy.php:Bucket.open (member)",
  // PHP: a name read in the caller's namespace (App's fmt and local, not
  // Lib's), then for a function the global one (helper); `\Lib\render()`,
  // `Sub\deep()`, `new \Lib\Cache()` and `\Lib\Cache::make()` name theirs;
  // `Cache::make()` and `$s->save()` of a `new Cache` are no calls of Lib's.
  "php/ns/app.php:run -> php/ns/app.php:local (same-file)",
  "php/ns/app.php:run -> php/ns/lib.php:Cache (unique)",
  "php/ns/app.php:run -> php/ns/lib.php:Cache.make (member)",
  "php/ns/app.php:run -> php/ns/lib.php:render (unique)",
  "php/ns/app.php:run -> php/ns/more.php:fmt (unique)",
  "php/ns/app.php:run -> php/ns/sub.php:App\\Sub.deep (unique)",
  "php/ns/app.php:run -> php/util.php:helper (unique)",
  // PHP: a class named like its namespace inherits its namespace's Base.
  "php/shop/shop.php:Shop.run -> php/shop/base.php:Base.close (member)",
  // PHP: $this through the base; count is PHP's own; helper the global
  // namespace's, though Lib has one.
  "php/store.php:Store.get -> php/store.php:Base.close (member)",
  "php/store.php:Store.get -> php/store.php:Store.check (member)",
  "php/store.php:main -> php/store.php:Store (same-file)",
  "php/store.php:main -> php/store.php:Store.get (member)",
  "php/store.php:main -> php/util.php:helper (unique)",
  // Python: a name bound by `as` lands on what it imports.
  "py/alias.py:Child.shut -> py/base.py:Base.close (member)",
  "py/alias.py:use_alias -> py/base.py:Base (import)",
  "py/alias.py:use_alias -> py/util.py:shared (import)",
  // A module's own code (`db = Database()`) is its file's.
  "py/dbmod.py: -> py/dbmod.py:Database (same-file)",
  // Python: a parameter or loop variable named like an import is no import;
  // a function of the caller's own shadows one.
  "py/hooks.py:direct -> py/util.py:shared (import)",
  "py/hooks.py:local -> py/hooks.py:local.main (same-file)",
  // Python: kwargs.get, adapter.send, next and len stay unresolved.
  "py/session.py:Session.get -> py/base.py:Base.request (member)",
  "py/session.py:Session.send -> py/base.py:Base.close (member)",
  "py/session.py:Session.send -> py/base.py:Base.close (member)",
  "py/session.py:Session.send -> py/session.py:Session.get_adapter (member)",
  "py/session.py:main -> py/base.py:Response.get (member)",
  "py/session.py:main -> py/session.py:Session (same-file)",
  "py/session.py:main -> py/session.py:Session.get (member)",
  "py/session.py:main -> py/session.py:Session.send (member)",
  "py/session.py:main -> py/util.py:shared (import)",
  // `from .exported import *` brings only what exported.py's __all__ names, `_listed` too.
  "py/star_all.py:main -> py/exported.py:_listed (import)",
  "py/star_all.py:main -> py/exported.py:also (import)",
  "py/star_all.py:main -> py/exported.py:shown (import)",
  // `from . import util` in py/sub/ is py/sub/util.py, never its parent's.
  "py/sub/jobs.py:run -> py/sub/util.py:next (import)",
  // Python: `dbmod.session()` through the module, by its name or an alias;
  // `db.session()` after `from .dbmod import db` is a call on an object.
  "py/use_db.py:run -> py/dbmod.py:session (import)",
  "py/use_db.py:run -> py/dbmod.py:session (import)",
  // Ruby: calls without parentheses; a local variable or parameter named
  // like a method is no call of it, `footer()` is.
  "rb/bare.rb:Report.build -> rb/bare.rb:Report.footer (member)",
  "rb/bare.rb:Report.build -> rb/bare.rb:Report.header (member)",
  "rb/bare.rb:Report.build -> rb/bare.rb:Report.save! (member)",
  "rb/bare.rb:Report.build -> rb/bare.rb:Report.valid? (member)",
  "rb/bare.rb:Report.build -> rb/bare.rb:sum_up (same-file)",
  // An attribute reader is a method of its class.
  "rb/bare.rb:Report.heading -> rb/bare.rb:Report.title (member)",
  // Ruby: own method bare, self through the base; puts is Kernel's.
  // Ruby: the Company a name sees, top-level outside module Namespaced.
  "rb/company.rb:Firm.run -> rb/company.rb:Company.pay (member)",
  "rb/company.rb:Namespaced.Branch.check -> rb/company.rb:Namespaced.Company.audit (member)",
  // Ruby: a class nested in another is named bare only inside it.
  "rb/nested_use.rb:Shop.Preloader.Batch.run -> rb/nested.rb:Shop.Preloader.Association.load (member)",
  // Ruby: a qualified base is the class its path names.
  "rb/qualified.rb:Shop.Records.Money.cast_all -> rb/qualified.rb:Shop.Types.Value.cast (member)",
  "rb/store.rb:Store.get -> rb/store.rb:Base.close (member)",
  "rb/store.rb:Store.get -> rb/store.rb:Store.check (member)",
  "rb/store.rb:main -> rb/store.rb:Store.get (member)",
  // Rust: a parameter named like a function is no call of it.
  "rs/src/hooks.rs:direct -> rs/src/hooks.rs:notify (same-file)",
  // Rust: Type::new, a receiver bound by it, self; println! is the language's.
  "rs/src/lib.rs:Store.get -> rs/src/lib.rs:Store.check (member)",
  "rs/src/lib.rs:Store.new -> rs/src/lib.rs:Store (same-file)",
  // Rust: only a constructor by its name (new, with_*…) says what it returns.
  "rs/src/lib.rs:read -> rs/src/lib.rs:Store.reader (member)",
  "rs/src/lib.rs:run -> rs/src/lib.rs:Store.get (member)",
  "rs/src/lib.rs:run -> rs/src/lib.rs:Store.new (member)",
  // Rust: `fn tidy` beside `mod tidy;` makes the call (see the test's kinds).
  "rs/src/named.rs:tidy -> rs/src/named.rs:sweep (same-file)",
  // Rust: `use crate::db;` and `use crate::db::Pool;`, whichever file comes
  // first; `POOL.session()` is a static's method, not db.rs's session.
  "rs/src/use_db.rs:run -> rs/src/db.rs:Pool.open (import)",
  "rs/src/use_db.rs:run -> rs/src/db.rs:session (import)",
  // Shell: echo is the shell's, whatever lib.sh defines.
  "sh/run.sh:main -> sh/lib.sh:setup (unique)",
  "sh/run.sh:main -> sh/run.sh:greet (same-file)",
  // TypeScript: names bound by `as` land on what they import.
  "ts/alias.ts:Child.shut -> ts/base.ts:Base.close (member)",
  "ts/alias.ts:useAlias -> ts/base.ts:format (import)",
  "ts/alias.ts:useAlias -> ts/base.ts:stop (import)",
  "ts/db.ts:db -> ts/db.ts:Database (same-file)",
  // TypeScript: a parameter named like an import is no import; a function of the caller's shadows it.
  "ts/hooks.ts:done -> ts/base.ts:stop (import)",
  "ts/hooks.ts:local -> ts/hooks.ts:local.format (same-file)",
  // TypeScript: a namespace's own class, not the top-level one of its name.
  "ts/scoped.ts:inner.fill -> ts/scoped.ts:inner.Store (same-file)",
  "ts/scoped.ts:inner.fill -> ts/scoped.ts:inner.Store.put (member)",
  // TypeScript: through the import, the base, an annotated parameter.
  "ts/service.ts:Service.run -> ts/base.ts:Base.close (member)",
  "ts/service.ts:Service.run -> ts/base.ts:format (import)",
  "ts/service.ts:Service.run -> ts/service.ts:Service.stop (member)",
  "ts/service.ts:start -> ts/service.ts:Service.run (member)",
  "ts/service.ts:start -> ts/service.ts:pick (same-file)",
  // TypeScript: `whole.session()` through the module imported whole;
  // `db.session()` after `import { db }` is a call on an object.
  "ts/use_db.ts:run -> ts/db.ts:session (import)",
];

function copyDir(from: string, to: string): string[] {
  Deno.mkdirSync(to, { recursive: true });
  const files: string[] = [];
  for (const e of Deno.readDirSync(from)) {
    if (e.isDirectory) files.push(...copyDir(join(from, e.name), join(to, e.name)));
    else {
      Deno.copyFileSync(join(from, e.name), join(to, e.name));
      files.push(join(to, e.name));
    }
  }
  return files;
}

function open(base: string) {
  const repo = join(base, "traps");
  const files = copyDir(FIXTURE, repo).sort();
  const home = homePaths(join(base, "home"));
  const journal = Journal.open(home.journal);
  const config = { ...defaultConfig(), roots: [{ path: repo, depth: "max" as const }] };
  const r = new Reconciler(journal, home, config, createExtractor());
  r.syncRoots();
  return {
    repo,
    files,
    journal,
    r,
    /** Writes `text` to `path` and reconciles it, as an editor's save and the daemon would. */
    rewrite: async (path: string, text: string) => {
      Deno.writeTextFileSync(path, text);
      await r.reconcilePaths([path]);
    },
    calls: () =>
      journal.all<{ e: string }>(
        `SELECT ps.rel || ':' || s.qualname || ' -> ' || pd.rel || ':' || d.qualname
           || ' (' || e.how || ')' AS e
         FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
         JOIN paths ps ON ps.id = s.path_id JOIN paths pd ON pd.id = d.path_id
         WHERE e.kind = 'calls' ORDER BY 1`,
      ).map((r) => r.e),
    pending: () =>
      journal.all<{ p: string }>(
        `SELECT ps.rel || ':' || pe.target AS p FROM pending_edges pe
         JOIN paths ps ON ps.id = pe.owner_id WHERE pe.kind = 'calls' ORDER BY 1`,
      ).map((r) => r.p),
  };
}

Deno.test("calls resolve only with evidence of their receiver, in every language, in any order", () =>
  withTempDir(async (base) => {
    const cold = open(join(base, "cold"));
    await cold.r.audit();
    assert.deepEqual(cold.calls(), EXPECTED);
    // Of two symbols of one name, the one whose lines hold a call makes it.
    assert.deepEqual(
      cold.journal.all<{ kind: string }>(
        `SELECT s.kind FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
         JOIN paths pd ON pd.id = d.path_id
         WHERE e.kind = 'calls' AND pd.rel IN ('rs/src/named.rs', 'php/shop/base.php')
         ORDER BY 1`,
      ).map((r) => r.kind),
      ["function", "method"],
    );
    // The traps stay pending with their names.
    const pending = cold.pending();
    for (
      const trap of [
        "py/session.py:kwargs.get",
        "py/session.py:adapter.send",
        "py/session.py:next",
        "py/session.py:len",
        "py/session.py:_tidy",
        "py/star_all.py:unlisted",
        "py/star_all.py:shared",
        "js/app.js:console.log",
        "js/app.js:Object.keys",
        "js/app.js:parseInt",
        "js/app.js:opts.get",
        "js/app.js:?.load",
        "ts/service.ts:other.stop",
        "ts/service.ts:items.map",
        "go/store/other.go:Get",
        "go/store/other.go:w.Write",
        "rs/src/lib.rs:Options.get",
        "rs/src/lib.rs:r.get",
        "java/com/acme/Store.java:opts.get",
        "c/main.c:o.read",
        "c/main.c:printf",
        // libm's log and POSIX's fileno, never a function of the repository so named.
        "c/stats.c:log",
        "c/stats.c:fileno",
        "cpp/widget.cpp:flush",
        // Another file's static function, another namespace's, the library's.
        "cpp/use_math.cpp:hidden",
        "cpp/use_math.cpp:clamp",
        "cpp/use_math.cpp:max",
        "cpp/use_math.cpp:mathx.twice",
        "cs/Store.cs:Logger.Write",
        // No method of a type imported with `using static`: Strings' Trim, System.Math's Max.
        "cs/Static.cs:Trim",
        "cs/Static.cs:Max",
        "rb/store.rb:opts.fetch",
        "rb/store.rb:puts",
        "rb/job.rb:warn",
        "rb/job.rb:system",
        "js/app.js:requestAnimationFrame",
        // A module's function is no global of scripts; a module sees none.
        "js/spec.test.js:expect",
        "js/esm.mjs:setup",
        "rb/bare.rb:render_all",
        "php/store.php:$opts.fetch",
        "php/store.php:count",
        // Another namespace's function or class, not App's.
        "php/ns/app.php:render",
        "php/ns/app.php:Cache",
        "php/ns/app.php:Cache.save",
        "sh/run.sh:echo",
        // A method of an object a module defines, not the module's function.
        "py/use_db.py:session",
        "ts/use_db.ts:session",
        "rs/src/use_db.rs:session",
        // Calls of parameters and variables, whatever their names.
        // What a parameter or variable named like a class builds, and a
        // closure's call of its enclosing function's parameter.
        "py/hooks.py:b.close",
        "py/hooks.py:b.request",
        "ts/hooks.ts:b.close",
        "ts/hooks.ts:?.close",
        "ts/hooks.ts:?.stop",
        "py/hooks.py:?.shared",
        "ts/hooks.ts:?.format",
        "js/hooks.js:?.setup",
        "c/hooks.c:?.util_run",
        "c/hooks.c:?.cmp",
        "go/store/hooks.go:?.helper",
        "rs/src/hooks.rs:?.notify",
        "cs/Worker.cs:?.handler",
        // A static function of another C file.
        "c/hooks.c:hidden",
        // A Go import whose path names neither of two packages of its name.
        "go/app/app.go:Encode",
        // An external test's and package main's calls of package store's names.
        "go/store/ext_test.go:helper",
        "go/store/ext_test.go:New",
        "go/store/ext_test.go:Store",
        "go/store/ext_test.go:Store.lock",
        "go/store/gen.go:New",
        "go/app/use.go:TestExternal",
        // A function nested in another, a method of a class a block makes.
        "js/page.js:paint",
        "js/page.js:Brush",
        "js/page.js:Brush.stroke",
        // A script's own variable (in the IIFE that wraps it), not another's function.
        "js/bundle.js:?.keys",
        // A function inside a script's IIFE or a callback is no global, however unique,
        // unless the script makes it one (bundle.js's `window.values = values`).
        "js/page.js:pick",
        "js/page.js:layout",
        "rb/point.rb:norm",
        "rb/point.rb:label",
        "rb/point.rb:area",
        // Preloader's Association outside Preloader, Shop's Tokenizer outside Shop.
        "rb/nested_use.rb:load",
        "rb/nested_use.rb:next_token",
        "rb/qualified.rb:cast",
        // Rake's sh, not a singleton method of another file (`def self.sh`).
        "rb/build.rb:sh",
        "java/flavor/tests/com/shop/AppTest.java:trim",
        "java/flavor/main/com/shop/Items.java:clear",
        // System.Threading's Timer, not Acme.Ui's (its namespace unseen).
        "cs/Clock.cs:Timer",
        "cs/Clock.cs:Timer.Start",
      ]
    ) assert.ok(pending.includes(trap), `${trap} is pending: ${pending.join(", ")}`);

    // File by file, in reverse order, the same graph.
    const warm = open(join(base, "warm"));
    for (const f of [...warm.files].reverse()) await warm.r.reconcilePaths([f]);
    assert.deepEqual(warm.calls(), EXPECTED, "reverse order");
    assert.deepEqual(
      warm.pending().map((p) => relative(".", p)),
      pending.map((p) => relative(".", p)),
    );
    cold.journal.close();
    warm.journal.close();
  }));

Deno.test("a C++ method's definition out of its class has the callers of its declaration", () =>
  withTempDir(async (base) => {
    const t = open(base);
    await t.r.audit();
    const at = (rel: string) => `${join(t.repo, rel)}:close`;
    const definition = findSymbol(t.journal, at("cpp/widget.cpp"));
    const declaration = findSymbol(t.journal, at("cpp/include/widget.h"));
    assert.notEqual(definition.id, declaration.id);
    for (const sym of [definition, declaration]) {
      assert.deepEqual(callers(t.journal, sym).hits.map((h) => h.qualname), ["ui.Widget.open"]);
      assert.deepEqual(blastRadius(t.journal, sym, 1).map((h) => h.qualname), ["ui.Widget.open"]);
    }
    const open_ = findSymbol(t.journal, `${join(t.repo, "cpp/widget.cpp")}:open`);
    // An edit of the definition is one call away from its callers (a teammate's warning).
    assert.ok(callNeighbourIds(t.journal, [definition.id]).includes(open_.id));
    // A method defined in its class has no other half.
    const size = findSymbol(t.journal, `${join(t.repo, "cpp/include/widget.h")}:size`);
    assert.deepEqual(sameMethod(t.journal, size.id), [size.id]);
    t.journal.close();
  }));

Deno.test("a C function named bare is its definition, not a header's or a file's prototype of it", () =>
  withTempDir(async (base) => {
    const t = open(base);
    await t.r.audit();
    // util.h and proto.c declare util_run, util.c defines it.
    const run = findSymbol(t.journal, "util_run");
    assert.equal(run.path, join(t.repo, "c/util.c"));
    assert.deepEqual(callers(t.journal, run).hits.map((h) => h.qualname).sort(), ["main", "twice"]);
    // A K&R definition, its parameters declared after the list, is no prototype of itself.
    const kr = findSymbol(t.journal, `${join(t.repo, "c/kr.c")}:kr_sum`);
    assert.equal(kr.line, 7);
    assert.deepEqual(callers(t.journal, kr).hits.map((h) => h.qualname), ["kr_add3"]);
    // Named by its file, a prototype is still what was asked for.
    const declared = findSymbol(t.journal, `${join(t.repo, "c/proto.c")}:util_run`);
    assert.equal(declared.path, join(t.repo, "c/proto.c"));
    t.journal.close();
  }));

Deno.test("a PHP call lands on its namespace's function whichever file comes first, and leaves it when that file names another namespace", () =>
  withTempDir(async (base) => {
    const t = open(base);
    const at = (rel: string) => join(t.repo, rel);
    const fmt = "php/ns/app.php:run -> php/ns/more.php:fmt (unique)";
    // The caller first, Lib's fmt next (fmt is no longer unique), App's last.
    for (const rel of ["php/ns/app.php", "php/ns/lib.php", "php/ns/more.php"]) {
      await t.r.reconcilePaths([at(rel)]);
    }
    assert.ok(t.calls().includes(fmt), t.calls().join("\n"));
    // `namespace App;` becomes `namespace Other;`: its fmt is App's no more.
    const more = at("php/ns/more.php");
    await t.rewrite(more, Deno.readTextFileSync(more).replace("App;", "Other;"));
    assert.ok(!t.calls().some((c) => c.includes("fmt")), t.calls().join("\n"));
    assert.ok(t.pending().includes("php/ns/app.php:fmt"), t.pending().join("\n"));
    t.journal.close();
  }));

Deno.test("a PHP `use` in files not laid out by namespace follows the namespace its target declares, as that changes and back", () =>
  withTempDir(async (base) => {
    const t = open(base);
    const at = (rel: string) => join(t.repo, rel);
    const flat = () => t.calls().filter((c) => c.startsWith("php/flat/client.php:"));
    // The caller first, its target last.
    for (const rel of ["php/flat/client.php", "php/flat/decoy.php", "php/flat/bucket.php"]) {
      await t.r.reconcilePaths([at(rel)]);
    }
    const all = flat();
    assert.equal(all.length, 6, all.join("\n"));
    // Vendor\Kv becomes Other\Kv's namesake: nothing the `use` names is there.
    const bucket = at("php/flat/bucket.php");
    const text = Deno.readTextFileSync(bucket);
    await t.rewrite(bucket, text.replace("namespace Vendor\\Kv;", "namespace Elsewhere;"));
    assert.deepEqual(flat(), []);
    assert.ok(t.pending().includes("php/flat/client.php:Pail.put"), t.pending().join("\n"));
    // And back; then a method Bucket gains is found through the alias.
    await t.rewrite(bucket, text);
    assert.deepEqual(flat(), all);
    const client = at("php/flat/client.php");
    await t.rewrite(
      client,
      Deno.readTextFileSync(client).replace("$p->put(2);", "$p->put(2);\n    $p->drop();"),
    );
    await t.rewrite(
      bucket,
      text.replace("public function put", "public function drop() {}\n    public function put"),
    );
    assert.ok(
      flat().includes("php/flat/client.php:store -> php/flat/bucket.php:Bucket.drop (import)"),
      flat().join("\n"),
    );
    t.journal.close();
  }));

Deno.test("a JS script's function is a global of other scripts only while its file exports and imports nothing", () =>
  withTempDir(async (base) => {
    const t = open(base);
    await t.r.audit();
    const edge = "js/app.js:main -> js/logger.js:setup (unique)";
    assert.ok(t.calls().includes(edge), t.calls().join("\n"));
    // logger.js becomes a module: its setup is its own.
    const logger = join(t.repo, "js/logger.js");
    const text = Deno.readTextFileSync(logger);
    await t.rewrite(logger, text.replace("function setup", "export function setup"));
    assert.ok(!t.calls().includes(edge), t.calls().join("\n"));
    assert.ok(t.pending().includes("js/app.js:setup"), t.pending().join("\n"));
    // And a script again.
    await t.rewrite(logger, text);
    assert.ok(t.calls().includes(edge), t.calls().join("\n"));
    // An import makes it a module too.
    await t.rewrite(logger, 'const os = require("os");\n' + text);
    assert.ok(!t.calls().includes(edge), t.calls().join("\n"));
    t.journal.close();
  }));

Deno.test("a Go file's calls follow its package clause, not only its folder, as the clause changes and back", () =>
  withTempDir(async (base) => {
    const t = open(base);
    await t.r.audit();
    const store = (c: string) => c.startsWith("go/store/");
    const helper = "go/store/other.go:Other -> go/store/store.go:helper (unique)";
    const before = t.calls().filter(store);
    assert.ok(before.includes(helper), before.join("\n"));
    // The external test joins package store: store's names are its own.
    const ext = join(t.repo, "go/store/ext_test.go");
    const extText = Deno.readTextFileSync(ext);
    await t.rewrite(ext, extText.replace("package store_test", "package store"));
    const joined = t.calls().filter((c) => c.startsWith("go/store/ext_test.go:"));
    assert.deepEqual(joined, [
      "go/store/ext_test.go:TestExternal -> go/store/store.go:New (unique)",
      "go/store/ext_test.go:TestExternal -> go/store/store.go:Store (unique)",
      "go/store/ext_test.go:TestExternal -> go/store/store.go:Store.lock (member)",
      "go/store/ext_test.go:TestExternal -> go/store/store.go:helper (unique)",
    ]);
    // And leaves it.
    await t.rewrite(ext, extText);
    assert.deepEqual(t.calls().filter(store), before);
    // The generator joins package store: two helpers there, neither is evidently the one.
    const gen = join(t.repo, "go/store/gen.go");
    const genText = Deno.readTextFileSync(gen);
    await t.rewrite(gen, genText.replace("\npackage main", "\npackage store"));
    assert.ok(!t.calls().includes(helper), t.calls().filter(store).join("\n"));
    assert.ok(t.pending().includes("go/store/other.go:helper"), t.pending().join("\n"));
    // And leaves it.
    await t.rewrite(gen, genText);
    assert.deepEqual(t.calls().filter(store), before);
    t.journal.close();
  }));

Deno.test("a qualified base is the class its path names, never the class itself nor a namesake elsewhere", () =>
  withTempDir(async (base) => {
    const t = open(base);
    await t.r.audit();
    const bases = t.journal.all<{ e: string }>(
      `SELECT s.qualname || ' < ' || e.target || ' -> ' || d.qualname AS e
       FROM edges e JOIN nodes s ON s.id = e.src JOIN nodes d ON d.id = e.dst
       JOIN paths ps ON ps.id = s.path_id WHERE e.kind = 'inherits' AND ps.rel = 'rb/qualified.rb'
       ORDER BY 1`,
    ).map((r) => r.e);
    assert.deepEqual(bases, ["Shop.Records.Money < Types::Value -> Shop.Types.Value"]);
    t.journal.close();
  }));

Deno.test("a Python star import follows the module's __all__ as it changes and back", () =>
  withTempDir(async (base) => {
    const t = open(base);
    await t.r.audit();
    const star = (c: string) => c.startsWith("py/star_all.py:");
    const before = t.calls().filter(star);
    assert.deepEqual(before, [
      "py/star_all.py:main -> py/exported.py:_listed (import)",
      "py/star_all.py:main -> py/exported.py:also (import)",
      "py/star_all.py:main -> py/exported.py:shown (import)",
    ]);
    // unlisted joins __all__, also leaves it.
    const mod = join(t.repo, "py/exported.py");
    const text = Deno.readTextFileSync(mod);
    await t.rewrite(mod, text.replace('"shown"', '"shown", "unlisted"').replace('"also",', ""));
    assert.deepEqual(t.calls().filter(star), [
      "py/star_all.py:main -> py/exported.py:_listed (import)",
      "py/star_all.py:main -> py/exported.py:shown (import)",
      "py/star_all.py:main -> py/exported.py:unlisted (import)",
    ]);
    // No __all__: every public name, its imports too, but no `_private`.
    await t.rewrite(mod, text.replace(/^__all__.*$/gm, ""));
    assert.deepEqual(t.calls().filter(star), [
      "py/star_all.py:main -> py/exported.py:also (import)",
      "py/star_all.py:main -> py/exported.py:shown (import)",
      "py/star_all.py:main -> py/exported.py:unlisted (import)",
      "py/star_all.py:main -> py/util.py:shared (import)",
    ]);
    // An __all__ built otherwise too (`.extend(…)`) is no list to read: every public name.
    await t.rewrite(mod, text.replace('__all__ += ("also",)', "__all__.extend(EXTRA)"));
    assert.deepEqual(t.calls().filter(star), [
      "py/star_all.py:main -> py/exported.py:also (import)",
      "py/star_all.py:main -> py/exported.py:shown (import)",
      "py/star_all.py:main -> py/exported.py:unlisted (import)",
      "py/star_all.py:main -> py/util.py:shared (import)",
    ]);
    // And back.
    await t.rewrite(mod, text);
    assert.deepEqual(t.calls().filter(star), before);
    t.journal.close();
  }));
