/**
 * Vitest global set-up: the README's test command must work on a fresh machine that has only
 * Node and npm, so when Debian's Chromium is missing and this process may install packages
 * (root with apt-get), it installs it; anywhere else the browser tests fail with instructions.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

import { CHROMIUM } from "./chromium.js"

function canInstall(): boolean {
  return process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")
}

export default function installChromium(): void {
  if (existsSync(CHROMIUM) || !canInstall()) return
  console.log(`${CHROMIUM} is missing: installing Debian's chromium with apt-get (about 30 s)...`)
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env })
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env })
}
