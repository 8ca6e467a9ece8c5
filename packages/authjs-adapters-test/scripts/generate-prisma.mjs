#!/usr/bin/env node
// Generates the Prisma client the tests run on, into node_modules/.cache/prisma-client: this
// package's `build`, which turbo runs before its lint, type check and tests (turbo.json), never
// beside them. The models are the ones @portcullis/authjs-types-test compiles
// (Auth.js's Prisma guide: ../authjs-types-test/prisma/schema.prisma), with the generator given
// an output of this package's own, so the two packages never write the same generated client.
// Offline: `prisma generate` never runs the schema engine, but checks that one is there unless
// PRISMA_SCHEMA_ENGINE_BINARY names an executable (any will do), and the engines' download is
// not allowed to run at install time.
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import process from "node:process"
import { URL, fileURLToPath } from "node:url"

const cache = fileURLToPath(new URL("../node_modules/.cache/", import.meta.url))
const models = readFileSync(new URL("../../authjs-types-test/prisma/schema.prisma", import.meta.url), "utf8")
const generator = /generator client \{[^}]*\}/
if (!generator.test(models)) throw new Error("generate-prisma: the schema has no `generator client` block to point at our output")
mkdirSync(cache, { recursive: true })
const schema = `${cache}schema.prisma`
writeFileSync(schema, models.replace(generator, `generator client {\n  provider = "prisma-client-js"\n  output   = ${JSON.stringify(`${cache}prisma-client`)}\n}`))

const prisma = fileURLToPath(new URL("../node_modules/.bin/prisma", import.meta.url))
execFileSync(prisma, ["generate", "--schema", schema], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
})
