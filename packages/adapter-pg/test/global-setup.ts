/**
 * Vitest global set-up: one PostgreSQL server for the whole run; each test file makes its own
 * database on it with `createDatabase`.
 */
import type { TestProject } from "vitest/node"
import { startPostgres } from "./postgres.js"

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgres()
  project.provide("postgresUrl", postgres.connectionString)
  return () => postgres.stop()
}
