/** The editor link of a file at a line: the person's template filled in, no DOM. */

/** The template used until the person picks another (VS Code). */
export const DEFAULT_EDITOR = "vscode://file/{path}:{line}";

/**
 * `template` with `{path}` and `{line}` filled in. The path is percent-encoded
 * as a URL's path, and `#`, `?`, `&` and `+` too: left as they are they end
 * the path (a fragment, a query) or the `file=` parameter of an
 * `idea://open?file={path}` template, and the editor opened another file.
 */
export function fillEditorUrl(template: string, path: string, line: number | null): string {
  const encoded = encodeURI(path).replace(
    /[#?&+]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return template.replaceAll("{path}", encoded).replaceAll("{line}", String(line ?? 1));
}
