/** What the codemod knows of the Portcullis packages it migrates to (see scripts/workspace-facts.ts). */
export interface WorkspaceFacts {
  /** Each package's version when the codemod was built, by package name. */
  versions: Record<string, string>
  /** Each package's entry points as subpaths (`""` for the package itself, `"react"`, `"github"`...). */
  entries: Record<string, string[]>
  /** Each package's peer ranges for what is not ours (`{ next: "^16", react: "^18.2 || ^19" }`), by package name. */
  peers: Record<string, Record<string, string>>
  /** The names some entries export (`"default"` included), by full specifier. */
  exports: Record<string, string[]>
}

declare const __WORKSPACE__: WorkspaceFacts

/** Baked in at build time from the workspace's built packages. */
export const workspace: WorkspaceFacts = __WORKSPACE__

/** Whether `pkg` has the entry `subpath` (`""` for the package itself). */
export function hasEntry(pkg: string, subpath: string): boolean {
  return workspace.entries[pkg]?.includes(subpath) ?? false
}

/** The names `specifier` exports, when the codemod knows them. */
export function exportsOf(specifier: string): ReadonlySet<string> | undefined {
  const names = workspace.exports[specifier]
  return names === undefined ? undefined : new Set(names)
}
