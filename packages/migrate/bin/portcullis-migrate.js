#!/usr/bin/env node
// Committed rather than built: pnpm links a workspace package's bin at install time, before
// dist/ exists, and warns about every bin whose file is missing. The command lives in dist/cli.js.
import process from "node:process"

import("../dist/cli.js").catch((error) => {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("/dist/cli.js")) {
    process.stderr.write("@portcullis/migrate is not built yet: run `pnpm build` in the repository first.\n")
    process.exitCode = 1
    return
  }
  throw error
})
