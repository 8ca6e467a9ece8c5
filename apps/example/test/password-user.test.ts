import { describe, expect, it } from "vitest"

import { resolvePasswordUserPassword } from "../src/password-user.js"
import { SettingsError } from "../src/settings.js"

describe("resolvePasswordUserPassword", () => {
  it("makes up a new random password at each start when PASSWORD_USER_PASSWORD is unset, long enough for Password()'s default minimum of 15", () => {
    const first = resolvePasswordUserPassword({})
    const second = resolvePasswordUserPassword({ PASSWORD_USER_PASSWORD: "" })
    expect(first.generated).toBe(true)
    expect(first.password).toMatch(/^[0-9a-f]{32}$/)
    expect(second.password).not.toBe(first.password)
  })

  it("uses PASSWORD_USER_PASSWORD when it is set", () => {
    expect(resolvePasswordUserPassword({ PASSWORD_USER_PASSWORD: "violet kettle lanterns" })).toEqual({ password: "violet kettle lanterns", generated: false })
  })

  it.each([["short", 14], ["long", 257]])("rejects a %s password, naming the variable and not the value", (_kind, length) => {
    const attempt = () => resolvePasswordUserPassword({ PASSWORD_USER_PASSWORD: "q".repeat(length) })
    expect(attempt).toThrow(SettingsError)
    expect(attempt).toThrow(`PASSWORD_USER_PASSWORD must be 15 to 256 characters long, got ${length}.`)
  })
})
