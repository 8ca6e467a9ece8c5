/**
 * A first sign-in whose process is killed between its two writes (the user, then the account),
 * on PostgreSQL shared by two app instances: with `createUserWithAccount` the user goes with the
 * transaction; without it the user stays, alone, and the person's next sign-in through the same
 * provider (which verifies the address) finishes it instead of refusing them with
 * `OAuthAccountNotLinked` for good. The app has no email provider: with one, that user could
 * sign in by a link to its verified address, and is left to it.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { useDatabase } from "./databases.js"
import { ALICE, APP, Visitor, useTwoInstances, type Instance } from "./instances.js"

describe("a first sign-in killed between creating the user and linking the account", () => {
  const pool = useDatabase("killed_sign_in", migrate)
  const directory = mkdtempSync(join(tmpdir(), "killed-sign-in-"))
  const instances = useTwoInstances(() => ({
    DATABASE_URL: String(pool().options.connectionString),
    ADAPTER_MODULE: fileURLToPath(new URL("killed-adapter.ts", import.meta.url)),
    KILL_DIR: directory,
  }))
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true })
  })

  async function aliceRows(): Promise<{ users: string[]; accounts: string[] }> {
    const users = await pool().query<{ id: string }>(`SELECT id::text FROM users WHERE email = $1`, [ALICE.login])
    const accounts = await pool().query<{ userId: string }>(`SELECT "userId"::text FROM accounts WHERE provider = 'idp' AND "providerAccountId" = 'alice'`)
    return { users: users.rows.map((row) => row.id), accounts: accounts.rows.map((row) => row.userId) }
  }

  /** A first sign-in of Alice through `instance`, which dies right after inserting her user; the browser sees the connection drop. */
  async function killedFirstSignIn(instance: Instance): Promise<void> {
    await pool().query(`DELETE FROM users WHERE email = $1`, [ALICE.login])
    writeFileSync(join(directory, "armed"), "")
    await expect(new Visitor(instance).signIn(ALICE)).rejects.toThrow()
    expect(existsSync(join(directory, "armed")), "the process reached the placed point").toBe(false)
  }

  // Each test kills one of the two instances: the first kills A and signs in through B.
  it("without createUserWithAccount, leaves a user without its account, whom the next sign-in through the same provider with the verified address finishes and signs in", async () => {
    const [first, second] = instances()
    writeFileSync(join(directory, "plain"), "")
    await killedFirstSignIn(first)
    const { users: [orphan], accounts } = await aliceRows()
    expect(orphan).toBeDefined()
    expect(accounts).toEqual([])

    const visitor = new Visitor(second)
    expect((await visitor.signIn(ALICE)).url, second.output.join("\n")).toBe(`${APP}/protected`)
    expect(await aliceRows()).toEqual({ users: [orphan], accounts: [orphan] })
    expect((await visitor.session())?.user?.id).toBe(orphan)
  })

  it("with createUserWithAccount (one transaction), leaves no user and no account", async () => {
    const [, second] = instances()
    rmSync(join(directory, "plain"))
    await killedFirstSignIn(second)
    expect(await aliceRows()).toEqual({ users: [], accounts: [] })
  })
})
