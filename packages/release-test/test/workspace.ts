/**
 * The repository's packages as the release sees them, and a scratch copy of the workspace to
 * version and publish without touching the work tree.
 */
import { cp, mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises"
import { existsSync } from "node:fs"
import { basename, dirname, join, relative } from "node:path"

export const ROOT = join(import.meta.dirname, "..", "..", "..")

/** The fields of a package.json the rehearsal reads. */
export interface Manifest {
  name: string
  version: string
  private?: boolean
  files?: string[]
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

/** One workspace package: its folder (relative to the root) and manifest. */
export interface WorkspacePackage {
  dir: string
  manifest: Manifest
}

export async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as Manifest
}

/** Every package of `packages/*`, `apps/*` and `bench` in `root`, as pnpm-workspace.yaml globs them. */
export async function workspacePackages(root = ROOT): Promise<WorkspacePackage[]> {
  const dirs: string[] = ["bench"]
  for (const parent of ["packages", "apps"]) {
    for (const entry of await readdir(join(root, parent), { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(join(parent, entry.name))
    }
  }
  const found: WorkspacePackage[] = []
  for (const dir of dirs.sort()) {
    if (existsSync(join(root, dir, "package.json"))) found.push({ dir, manifest: await readManifest(join(root, dir)) })
  }
  return found
}

/** The packages a release publishes: every workspace package that is not private. */
export async function publishedPackages(root = ROOT): Promise<WorkspacePackage[]> {
  return (await workspacePackages(root)).filter((pkg) => pkg.manifest.private !== true)
}

const NEVER_COPIED = new Set(["node_modules", ".turbo", "coverage"])
/** What npm packs whatever `files` says (npm-packlist's always-included files). */
const ALWAYS_PACKED = /^(package\.json|readme|license|licence|changelog)(\..*)?$/i

/**
 * The top-level entries a package's tarball can hold: its `files` (negations are left to the
 * packer) and the files npm always packs. Copying only these keeps tests and sources out of the
 * scratch copy; the packer still applies `files` itself.
 */
async function packedEntries(dir: string, manifest: Manifest): Promise<string[]> {
  const listed = (manifest.files ?? []).filter((entry) => !entry.startsWith("!")).map((entry) => entry.split("/")[0] ?? entry)
  const always = (await readdir(dir)).filter((name) => ALWAYS_PACKED.test(name))
  return [...new Set([...listed, ...always])].filter((entry) => existsSync(join(dir, entry)))
}

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const

/**
 * Links each `workspace:` dependency into the dependent's node_modules, as `pnpm install` would:
 * `pnpm publish` reads the linked package's version to replace the protocol.
 */
async function linkWorkspace(root: string, packages: WorkspacePackage[]): Promise<void> {
  const dirs = new Map(packages.map(({ dir, manifest }) => [manifest.name, dir]))
  for (const { dir, manifest } of packages) {
    const names = new Set(DEPENDENCY_FIELDS.flatMap((field) => Object.entries(manifest[field] ?? {})).filter(([, range]) => range.startsWith("workspace:")).map(([name]) => name))
    for (const name of names) {
      const target = dirs.get(name)
      if (target === undefined) throw new Error(`${manifest.name} depends on ${name} through workspace:, but no workspace package has that name`)
      const link = join(root, dir, "node_modules", name)
      await mkdir(dirname(link), { recursive: true })
      await symlink(relative(dirname(link), join(root, target)), link)
    }
  }
}

/**
 * Copies the workspace into `target` as a release would see it: the root manifests and
 * changesets configuration (no pending changesets), what each published package's tarball can
 * hold (its built `dist` included), only the manifest of a private one, and the links between them.
 *
 * @throws Error when a published package has not been built.
 */
export async function copyWorkspace(target: string): Promise<void> {
  await mkdir(join(target, ".changeset"), { recursive: true })
  for (const file of ["package.json", "pnpm-workspace.yaml", ".npmrc", ".changeset/config.json"]) {
    await cp(join(ROOT, file), join(target, file))
  }
  const packages = await workspacePackages()
  for (const { dir, manifest } of packages) {
    const from = join(ROOT, dir)
    if (manifest.private === true) {
      await mkdir(join(target, dir), { recursive: true })
      await cp(join(from, "package.json"), join(target, dir, "package.json"))
      continue
    }
    if (!existsSync(join(from, "dist"))) throw new Error(`${manifest.name} has no dist: build it first (pnpm turbo run build)`)
    await mkdir(join(target, dir), { recursive: true })
    for (const entry of await packedEntries(from, manifest)) {
      await cp(join(from, entry), join(target, dir, entry), { recursive: true, filter: (source) => !NEVER_COPIED.has(basename(source)) })
    }
  }
  await linkWorkspace(target, packages)
}

/**
 * Writes a changeset into a workspace copy.
 *
 * @example
 * ```ts
 * await addChangeset(scratch, "core-minor", { "@portcullis/core": "minor" }, "A new option.")
 * ```
 */
export async function addChangeset(root: string, id: string, releases: Record<string, "major" | "minor" | "patch">, summary: string): Promise<void> {
  const front = Object.entries(releases).map(([name, type]) => `"${name}": ${type}`)
  await writeFile(join(root, ".changeset", `${id}.md`), `---\n${front.join("\n")}\n---\n\n${summary}\n`)
}

/** Each published package's version in a workspace copy, by name. */
export async function versions(root: string): Promise<Record<string, string>> {
  return Object.fromEntries((await publishedPackages(root)).map(({ manifest }) => [manifest.name, manifest.version]))
}
