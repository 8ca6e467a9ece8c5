/**
 * How a page control's script gets onto an HTML answer's Content-Security-Policy: its own module,
 * loaded by the pages that have such a control, so an app whose pages carry no script fetches none
 * of it.
 */
/**
 * Admits a control's script on an HTML answer's Content-Security-Policy: `sources` (`'self'`, a
 * `'sha256-…'` hash) join its one `script-src` directive, made when absent, and `connect` adds
 * `connect-src 'self'` for a script that calls our routes. Every control that brings a script
 * admits it here, so two controls on one page (a passkey button and the password toggle) add to
 * the same directives whichever comes first.
 */
export function admitScripts(headers: Headers, sources: readonly string[], options: { connect?: boolean } = {}): void {
  const directives = (headers.get("content-security-policy") ?? "").split(";").map((directive) => directive.trim()).filter((directive) => directive !== "")
  const indexOf = (name: string): number => directives.findIndex((directive) => directive.split(" ")[0] === name)
  const join = (name: string, added: readonly string[], after: string): void => {
    const at = indexOf(name)
    const present = at < 0 ? [] : (directives[at] ?? "").split(" ").slice(1)
    const merged = `${name} ${[...new Set([...present, ...added])].join(" ")}`
    // Beside `default-src`, where a reader of the header looks for what it relaxes.
    if (at < 0) directives.splice(indexOf(after) + 1, 0, merged)
    else directives[at] = merged
  }
  join("script-src", sources, "default-src")
  if (options.connect === true) join("connect-src", ["'self'"], "script-src")
  headers.set("content-security-policy", directives.join("; "))
}
