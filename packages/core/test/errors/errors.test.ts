import { describe, expect, it } from "vitest"
import { AccessDenied, AuthError, Configuration, CredentialsSignin, EmailSignInError, InvalidCheck, errorMessages, isAuthErrorCode } from "../../src/public-errors.js"
import { Jar, call, csrfToken, testConfig } from "../helpers.js"

describe("AuthError", () => {
  it("carries a stable code, its class name and the cause", () => {
    const cause = new Error("boom")
    const error = new InvalidCheck("state mismatch", { cause })
    expect(error).toBeInstanceOf(AuthError)
    expect(error.code).toBe("InvalidCheck")
    expect(error.name).toBe("InvalidCheck")
    expect(error.cause).toBe(cause)
    expect(error.page).toBe("signin")
  })

  it("keeps its name when a bundler makes its class anonymous, and lets a subclass name itself", () => {
    // What Turbopack emits for an exported class: an anonymous class expression, whose own name is "".
    const Anonymous = [class extends AuthError { readonly code = "InvalidCheck" as const }][0] as new (message: string) => AuthError
    expect(Anonymous.name).toBe("")
    expect(new Anonymous("x").name).toBe("InvalidCheck")
    expect(String(new Anonymous("state mismatch"))).toBe("InvalidCheck: state mismatch")
    class LockedAccount extends CredentialsSignin {
      constructor() {
        super("locked")
        this.name = "LockedAccount"
      }
    }
    expect(new LockedAccount().name).toBe("LockedAccount")
    expect(new CredentialsSignin().name).toBe("CredentialsSignin")
  })

  it("sends configuration and access failures to the error page", () => {
    expect(new Configuration("x").page).toBe("error")
    expect(new AccessDenied("x").page).toBe("error")
  })

  it("sends refused credentials and unsent links back to the sign-in page, with a safe public code", () => {
    expect(new CredentialsSignin().page).toBe("signin")
    expect(new CredentialsSignin().publicCode).toBe("credentials")
    expect(new CredentialsSignin("locked", { code: "locked" }).publicCode).toBe("locked")
    expect(new CredentialsSignin("x", { code: "a b&c" }).publicCode).toBe("credentials")
    class TooManyAttempts extends CredentialsSignin {
      override readonly publicCode = "rate_limited"
    }
    expect(new TooManyAttempts().publicCode).toBe("rate_limited")
    expect(new EmailSignInError("x").page).toBe("signin")
  })

  it("lets any error carry a public code, and drops one that is not safe to put in a URL", () => {
    expect(new InvalidCheck("x").publicCode).toBeUndefined()
    expect(new InvalidCheck("x", { publicCode: "expired_state" }).publicCode).toBe("expired_state")
    for (const unsafe of ["a b", "x&error=Configuration", "", "x".repeat(33), "é"]) expect(new InvalidCheck("x", { publicCode: unsafe }).publicCode).toBeUndefined()
    expect(new CredentialsSignin("x", { publicCode: "locked" }).publicCode).toBe("locked")
  })

  it("recognises only known codes from untrusted input", () => {
    expect(isAuthErrorCode("AccessDenied")).toBe(true)
    expect(isAuthErrorCode("toString")).toBe(false)
    expect(isAuthErrorCode("__proto__")).toBe(false)
    expect(isAuthErrorCode(42)).toBe(false)
    for (const message of Object.values(errorMessages)) expect(message).toMatch(/\.$/)
  })
})

describe("a CredentialsSignin subclass's public code", () => {
  /** Where a refused credentials sign-in sends the browser when `authorize` throws `error`. */
  async function refusedWith(error: CredentialsSignin): Promise<URL> {
    const config = testConfig({
      providers: [{ id: "password", name: "Password", type: "credentials", credentials: { username: { label: "Username" } }, authorize: () => { throw error } }],
    })
    const jar = new Jar()
    const response = await call(config, jar, "/api/auth/callback/password", { form: { csrfToken: await csrfToken(config, jar), username: "ada" } })
    return new URL(response.headers.get("location") ?? "")
  }

  it("reaches the sign-in page URL when it is safe, and is left out when it is not", async () => {
    class TooManyAttempts extends CredentialsSignin {
      override readonly publicCode = "rate_limited"
    }
    class Unsafe extends CredentialsSignin {
      override readonly publicCode = "<b>call 555-0100</b>"
    }
    expect((await refusedWith(new TooManyAttempts())).searchParams.get("code")).toBe("rate_limited")
    const unsafe = await refusedWith(new Unsafe())
    expect(unsafe.searchParams.get("error")).toBe("CredentialsSignin")
    expect(unsafe.searchParams.has("code")).toBe(false)
  })
})
