// Generates the Prisma client the Prisma app file imports (its types only), then compiles the
// app files as a Next.js app and as a Node ESM app would, and once more with an `AdapterUser`
// augmentation, as apps that added user columns have. `prisma generate` needs no database
// and no download when PRISMA_SCHEMA_ENGINE_BINARY names an executable: it never runs the schema
// engine, and the engines' own download (a postinstall script) is not allowed to run here.
import { execFileSync } from "node:child_process"
import { createRequire } from "node:module"
import process from "node:process"

const require = createRequire(import.meta.url)
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" }
const run = (bin, args) => execFileSync(process.execPath, [require.resolve(bin), ...args], { stdio: "inherit", env })

run("prisma/build/index.js", ["generate", "--schema", "prisma/schema.prisma"])
run("typescript/bin/tsc", ["--noEmit", "-p", "tsconfig.json"])
run("typescript/bin/tsc", ["--noEmit", "-p", "tsconfig.node.json"])
run("typescript/bin/tsc", ["--noEmit", "-p", "augmented/tsconfig.json"])
