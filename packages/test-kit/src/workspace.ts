/**
 * A test app in a folder of its own gets this workspace's `@portcullis/*` packages as a registry
 * install would: linked in with their `dist` ({@link linkWorkspacePackages}), or packed and
 * installed as a user's app installs them: by pnpm ({@link installPackedWorkspacePackages}) or by a
 * plain `npm install` ({@link installPackedWithNpm}).
 *
 * @module
 */
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** `packages/`: this file is built to `packages/test-kit/dist/`. */
const WORKSPACE_PACKAGES = fileURLToPath(new URL("../../", import.meta.url))
const WORKSPACE_ROOT = join(WORKSPACE_PACKAGES, "..")

/** The workspace package folder of `name`; throws, naming `dependent`, when there is none. */
function workspacePackage(dependent: string, name: string): string {
  const source = join(WORKSPACE_PACKAGES, name.slice("@portcullis/".length))
  if (!existsSync(join(source, "package.json"))) throw new Error(`${dependent} depends on ${name}, which this workspace does not have`)
  return source
}

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
    const source = workspacePackage(dir, name)
    const link = join(dir, "node_modules", name)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(source, link, "dir")
    linked.push(name)
  }
  return linked
}

/** Runs pnpm in `cwd`; rejects with the command and everything it printed when it fails. */
function pnpm(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("pnpm", args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout)
      else reject(new Error(`\`pnpm ${args.join(" ")}\` in ${cwd} failed (${String(error.code)}):\n${stdout}\n${stderr}`))
    })
  })
}

/** The version of `name` that `node_modules` folders from `from` up hold. */
function installedVersion(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, "node_modules", name, "package.json")
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version
    if (dirname(dir) === dir) throw new Error(`${name} is not installed in ${from} or above it: add it to that package's devDependencies`)
  }
}

/**
 * Packs each `@portcullis/*` package of `names` (others are left out) with `pnpm pack` into
 * `destination`, as `pnpm publish` would upload it: only its `files`, its `workspace:` ranges
 * replaced. Returns the tarballs by package name.
 *
 * @throws Error naming `dependent` when a name is one the workspace does not have, and with pnpm's
 * output when packing fails.
 */
export async function packWorkspacePackages(dependent: string, names: Iterable<string>, destination: string): Promise<Map<string, string>> {
  const ours = [...names].filter((name) => name.startsWith("@portcullis/"))
  for (const name of ours) workspacePackage(dependent, name)
  if (ours.length === 0) return new Map()
  const packed = await pnpm(["--recursive", ...ours.flatMap((name) => ["--filter", name]), "pack", "--pack-destination", destination, "--json"], WORKSPACE_ROOT)
  return new Map(
    [JSON.parse(packed) as unknown].flat().map((entry) => {
      const { name, filename } = entry as { name: string; filename: string }
      return [name, filename]
    }),
  )
}

/** Options of {@link installPackedWorkspacePackages}. */
export interface PackedInstallOptions {
  /** A scratch folder for the tarballs. */
  tarballs: string
  /**
   * A workspace package folder: each dependency of the app that is not `@portcullis/*` is installed
   * at the version its `node_modules` holds (the lockfile's), so pnpm takes it from the store.
   */
  versionsFrom: string
}

/**
 * Installs the app in `dir` (outside this workspace) as a user's `pnpm install` from the registry
 * would, with strict `node_modules`: each `@portcullis/*` package its package.json names from the
 * tarball `pnpm pack` makes of the built workspace package (only its `files`, its `workspace:`
 * ranges replaced, as `pnpm publish` uploads it), each other dependency from the registry through
 * this workspace's pnpm store. A file missing from `files`, a wrong `exports` target or a
 * dependency only the workspace provides then fails the app as it would fail a user's. Rewrites
 * `dir/package.json` to name what was installed, and returns the tarballs by package name.
 *
 * @throws Error with pnpm's output when packing or installing fails, and when a dependency is
 * neither a workspace package nor installed in `versionsFrom`.
 * @example
 * ```ts
 * await installPackedWorkspacePackages(appCopy, { tarballs: join(scratch, "tarballs"), versionsFrom: PACKAGE_DIR })
 * ```
 */
export async function installPackedWorkspacePackages(dir: string, options: PackedInstallOptions): Promise<Map<string, string>> {
  const manifestPath = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown> & {
    dependencies?: Record<string, string>
    devDependencies?: Record<string, string>
  }
  const names = [manifest.dependencies, manifest.devDependencies].flatMap((field) => Object.keys(field ?? {}))
  const [tarballs, store] = await Promise.all([packWorkspacePackages(dir, names, options.tarballs), pnpm(["store", "path"], WORKSPACE_ROOT)])
  const pinned = (field: Record<string, string> | undefined): Record<string, string> | undefined =>
    field &&
    Object.fromEntries(
      Object.keys(field).map((name) => {
        const tarball = tarballs.get(name)
        return [name, tarball === undefined ? installedVersion(name, options.versionsFrom) : `file:${tarball}`]
      }),
    )
  writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, dependencies: pinned(manifest.dependencies), devDependencies: pinned(manifest.devDependencies) }, null, 2)}\n`)
  // No lockfile to freeze (CI makes that pnpm's default); third-party metadata from pnpm's cache
  // when it has it, the registry otherwise.
  await pnpm(["install", "--ignore-workspace", "--no-frozen-lockfile", "--prefer-offline", "--store-dir", store.trim(), "--reporter", "append-only"], dir)
  return tarballs
}

/**
 * The environment of a child npm with npm's own defaults: no `npm_config_*` that the pnpm running
 * the tests set, and no `NODE_ENV` (vitest's "test"; "production" would leave out devDependencies).
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_config_") && name !== "NODE_ENV"))
}

/**
 * Installs the app in `dir` (outside this workspace) as a user's plain `npm install` would, with
 * npm's defaults (peer dependencies installed and checked, no `--legacy-peer-deps`, no `--force`):
 * each `@portcullis/*` dependency from the tarball {@link packWorkspacePackages} makes of it,
 * every other dependency at the range the app's package.json gives, from the registry through
 * npm's cache (`--prefer-offline`). A peer range of ours that refuses the app's framework fails
 * here with npm's `ERESOLVE`, as it would fail the user. Rewrites `dir/package.json` to name the
 * tarballs and returns them by package name.
 *
 * @throws Error with npm's output when packing or installing fails.
 */
export async function installPackedWithNpm(dir: string, options: { tarballs: string }): Promise<Map<string, string>> {
  const manifestPath = join(dir, "package.json")
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown> & {
    dependencies?: Record<string, string>
    devDependencies?: Record<string, string>
  }
  const names = [manifest.dependencies, manifest.devDependencies].flatMap((field) => Object.keys(field ?? {}))
  const tarballs = await packWorkspacePackages(dir, names, options.tarballs)
  const pointed = (field: Record<string, string> | undefined): Record<string, string> | undefined =>
    field && Object.fromEntries(Object.entries(field).map(([name, range]) => [name, tarballs.has(name) ? `file:${tarballs.get(name) ?? ""}` : range]))
  writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, dependencies: pointed(manifest.dependencies), devDependencies: pointed(manifest.devDependencies) }, null, 2)}\n`)
  await new Promise<void>((resolve, reject) => {
    execFile("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, env: npmEnvironment(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve()
      else reject(new Error(`\`npm install\` in ${dir} failed (${String(error.code)}):\n${stdout}\n${stderr}`))
    })
  })
  return tarballs
}
