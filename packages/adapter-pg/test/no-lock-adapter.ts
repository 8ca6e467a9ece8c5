/**
 * For the refresh race's control: this package's adapter without `withAccountLock`, so each
 * instance refreshes on its own (single flight within its process only).
 */
import type { Adapter } from "@portcullis/core/adapters"
import type pg from "pg"
import { PostgresAdapter } from "../src/index.js"

export default function NoLockAdapter(pool: pg.Pool): Adapter {
  const { withAccountLock: _lock, ...adapter } = PostgresAdapter(pool)
  return adapter
}
