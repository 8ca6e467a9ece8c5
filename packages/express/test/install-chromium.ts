/**
 * Vitest global set-up: CI starts on a machine with only Node and npm, so when Debian's Chromium
 * is missing and this process may install packages (root with apt-get), it installs it; anywhere
 * else the browser test fails with instructions.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { CHROMIUM } from "./chromium.js"

export default function installChromium(): void {
  if (existsSync(CHROMIUM) || process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) return
  console.log(`${CHROMIUM} is missing: installing Debian's chromium with apt-get (about 30 s)...`)
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env })
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env })
}
