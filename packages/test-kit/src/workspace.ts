/**
 * A test app in a folder of its own gets this workspace's `@portcullis/*` packages as a registry
 * install would: each one in the app's `node_modules`, its own dependencies resolved beside it.
 *
 * @module
 */
import { existsSync, mkdirSync, symlinkSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** `packages/`: this file is built to `packages/test-kit/dist/`. */
const WORKSPACE_PACKAGES = fileURLToPath(new URL("../../", import.meta.url))

/**
 * Links each `@portcullis/*` package of `names` (others are left out) from this workspace into
 * `dir/node_modules`, as they are published: the package folder with its `dist`, so build them first.
 * Returns the names linked.
 *
 * @throws Error when a name is one the workspace does not have.
 */
export function linkWorkspacePackages(dir: string, names: Iterable<string>): string[] {
  const linked: string[] = []
  for (const name of names) {
    if (!name.startsWith("@portcullis/")) continue
    const source = join(WORKSPACE_PACKAGES, name.slice("@portcullis/".length))
    if (!existsSync(join(source, "package.json"))) throw new Error(`${dir} depends on ${name}, which this workspace does not have`)
    const link = join(dir, "node_modules", name)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(source, link, "dir")
    linked.push(name)
  }
  return linked
}
