/**
 * vitest's global setup: installs every runtime the matrix lacks at once, before the test files
 * start, so a fresh machine pays the slowest install rather than their sum.
 */
import { installRuntime, isThisNode, PACKAGES, type RuntimeName } from "./runtimes.js"

export default async function setup(): Promise<void> {
  const wanted = new Map<string, RuntimeName>()
  for (const runtime of Object.keys(PACKAGES) as RuntimeName[]) {
    const { name, version } = PACKAGES[runtime]
    if (!isThisNode(runtime)) wanted.set(`${name}@${version}`, runtime)
  }
  await Promise.all([...wanted.values()].map((runtime) => installRuntime(runtime)))
}
