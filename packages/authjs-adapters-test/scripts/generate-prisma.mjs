#!/usr/bin/env node
// Generates the Prisma client for test/orm/schema.prisma into node_modules/.cache/prisma-client,
// before the type check and the tests. Offline: `prisma generate` never runs the schema engine,
// but checks that one is there unless PRISMA_SCHEMA_ENGINE_BINARY names an executable (any will
// do), and the engines' download is not allowed to run at install time (onlyBuiltDependencies).
import { execFileSync } from "node:child_process"
import process from "node:process"
import { URL, fileURLToPath } from "node:url"

const prisma = fileURLToPath(new URL("../node_modules/.bin/prisma", import.meta.url))
const schema = fileURLToPath(new URL("../test/orm/schema.prisma", import.meta.url))
execFileSync(prisma, ["generate", "--schema", schema], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
})
