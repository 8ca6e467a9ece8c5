/**
 * The sign-in mail limit measured across app processes: an email provider that writes each mail
 * it would send to a file (in the app processes), and a burst of concurrent sign-in requests for
 * one address over several instances (in the test).
 *
 * @module
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs"

/**
 * An email provider object whose `sendVerificationRequest` appends the address to `logFile`, one
 * line a mail, synchronously: once `Auth()` answered, the mail is in the file.
 */
export function fileMailProvider(logFile: string) {
  return {
    id: "email",
    name: "Email",
    type: "email" as const,
    sendVerificationRequest: ({ identifier }: { identifier: string }) => {
      appendFileSync(logFile, `${identifier}\n`)
    },
  }
}

/** The addresses {@link fileMailProvider} wrote to `logFile`, a mail an entry. */
export function mailsIn(logFile: string): string[] {
  return existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").filter(Boolean) : []
}

/** What a client can tell from an answer: status, header names, cookie names, `location` and body. */
async function shapeOf(response: Response): Promise<string> {
  const names = [...response.headers.keys()].sort().join(",")
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]).join(",")
  return JSON.stringify([response.status, names, cookies, response.headers.get("location"), await response.text()])
}

/** A CSRF token and the cookie it is bound to, fetched from `origin`. */
async function csrf(origin: string, basePath: string): Promise<{ token: string; cookie: string }> {
  const response = await fetch(`${origin}${basePath}/csrf`)
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  const cookie = response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
  return { token: csrfToken, cookie }
}

/**
 * Sends `each` sign-in requests for `email` to every origin, all at once: each with a CSRF token
 * and cookie of its own (fetched first), as so many clients would. Answers the distinct shapes of
 * the answers (status, header names, cookie names, `location`, body) and how many there were.
 *
 * @example
 * ```ts
 * const { shapes, answers } = await requestSignInMails([a.origin, b.origin], { email: "ada@example.com", each: 100 })
 * expect(answers).toBe(200)
 * expect(shapes).toHaveLength(1)
 * ```
 */
export async function requestSignInMails(
  origins: readonly string[],
  options: { email: string; each: number; basePath?: string; provider?: string },
): Promise<{ shapes: string[]; answers: number }> {
  const basePath = options.basePath ?? "/api/auth"
  const targets = origins.flatMap((origin) => Array.from({ length: options.each }, () => origin))
  const tokens = await Promise.all(targets.map((origin) => csrf(origin, basePath)))
  const answers = await Promise.all(
    targets.map(async (origin, i) => {
      const { token, cookie } = tokens[i] ?? { token: "", cookie: "" }
      const response = await fetch(`${origin}${basePath}/signin/${options.provider ?? "email"}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ csrfToken: token, email: options.email, callbackUrl: "/" }),
        redirect: "manual",
      })
      return shapeOf(response)
    }),
  )
  return { shapes: [...new Set(answers)], answers: answers.length }
}
