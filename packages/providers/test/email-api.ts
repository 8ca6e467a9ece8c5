// The kit for email providers that call a vendor's HTTP API: a local fake of the API on
// 127.0.0.1 that records each request (method, path, headers, body, JSON or form), and the tests
// every such provider passes: the documented request, the link signing in, the key from the
// environment, and a vendor error turned into EmailSignInError with no key or link in the log.
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { MemoryAdapter } from "@portcullis/adapter-memory"
import type { AuthConfig } from "@portcullis/core"
import { Configuration } from "@portcullis/core/errors"
import type { EmailConfig } from "@portcullis/core/providers"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { Browser, ORIGIN, SECRET, location } from "./browser.js"

/** One request the fake API received. */
export interface ApiRequest {
  method: string
  path: string
  headers: IncomingMessage["headers"]
  /** The JSON body, or the form's fields. */
  body: Record<string, unknown>
}

/** What an email API provider's test declares. */
export interface EmailApiCase {
  /** The environment variable the key is read from, e.g. `AUTH_RESEND_KEY`. */
  keyVariable: string
  /** Options besides `apiKey` and `apiUrl` (`from`, `domain`...). */
  config: Record<string, unknown>
  /** The documented path of the send call under the API's base URL. */
  path: string
  /** The documented auth header, for the key `test-api-key`: name and exact value. */
  auth: [header: string, value: string]
  /** Checks the body sent for `recipient` and returns the link in it. */
  link(body: Record<string, unknown>, recipient: string): string
  /** A vendor error answer that echoes what it was sent (as some APIs do). */
  error: { status: number; body: (request: ApiRequest) => unknown }
  /** `false` for an API that sends only its own templates (Loops): the provider has no `sendMail` for core's other mails. */
  sendsMail?: false
}

const KEY = "test-api-key"
const SUBMITTED = "  Ada.Lovelace@Example.COM "
const RECIPIENT = "ada.lovelace@example.com"

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks)
  const type = request.headers["content-type"] ?? ""
  if (type.startsWith("application/json")) return JSON.parse(raw.toString("utf8")) as Record<string, unknown>
  if (type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded")) {
    const form = await new Response(raw, { headers: { "content-type": type } }).formData()
    return Object.fromEntries([...form].map(([name, value]) => [name, typeof value === "string" ? value : value.name]))
  }
  return { raw: raw.toString("utf8") }
}

/** Registers the tests of an email API provider against a fake of its API. */
export function testEmailApiProvider(factory: (config: never) => EmailConfig, testCase: EmailApiCase): void {
  const make = factory as (config: Record<string, unknown>) => EmailConfig
  const received: ApiRequest[] = []
  let failing = false
  let apiUrl = ""
  const server = createServer((request, response) => {
    readBody(request).then((body) => {
      const entry: ApiRequest = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body }
      received.push(entry)
      const [status, answer] = failing ? [testCase.error.status, testCase.error.body(entry)] : [200, { id: "sent-1" }]
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(answer))
    }, () => {
      response.writeHead(400).end()
    })
  })
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve()
        })
      }),
  )

  function appConfig(logged: string[]): AuthConfig {
    return {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      providers: [make({ ...testCase.config, apiKey: KEY, apiUrl })],
      logger: {
        error: (error) => logged.push(`${error.message} ${error.cause instanceof Error ? error.cause.message : ""} ${error.stack ?? ""}`),
        warn: (code, message) => logged.push(`${code} ${message ?? ""}`),
      },
    }
  }

  const id = make({ ...testCase.config, apiKey: KEY }).id

  describe(`email API provider ${id}`, () => {
    it("calls the documented endpoint with its auth header and body, and the link signs in", async () => {
      received.length = 0
      const config = appConfig([])
      const response = await new Browser(config).post(`/api/auth/signin/${id}`, { email: SUBMITTED, callbackUrl: "/inbox" })
      expect(location(response).pathname).toBe("/api/auth/verify-request")
      expect(received).toHaveLength(1)
      const [sent] = received
      if (sent === undefined) throw new Error("no request reached the API")
      expect(sent.method).toBe("POST")
      expect(sent.path).toBe(testCase.path)
      expect(sent.headers[testCase.auth[0]]).toBe(testCase.auth[1])
      const link = testCase.link(sent.body, RECIPIENT)
      expect(link.startsWith(`${ORIGIN}/api/auth/callback/${id}?`)).toBe(true)
      const browser = new Browser(config)
      const landed = await browser.followSignInLink(link)
      expect(landed.redirects.slice(1)).toEqual([`${ORIGIN}/inbox`])
      expect(await browser.session()).toMatchObject({ user: { email: RECIPIENT } })
    })

    it("turns a vendor error into EmailSignInError, with neither the key nor the link in the log", async () => {
      received.length = 0
      failing = true
      try {
        const logged: string[] = []
        const response = await new Browser(appConfig(logged)).post(`/api/auth/signin/${id}`, { email: SUBMITTED })
        expect(location(response).searchParams.get("error")).toBe("EmailSignInError")
        const text = logged.join("\n")
        expect(text).toContain(`HTTP ${testCase.error.status}`)
        expect(text).not.toContain(KEY)
        const link = JSON.stringify(received[0]?.body ?? {})
        const token = /token=([\w-]+)/.exec(link)?.[1]
        expect(token, "the request carried a token").toBeDefined()
        expect(text).not.toContain(token)
      } finally {
        failing = false
      }
    })

    if (testCase.sendsMail === false) {
      it("has no transport for core's other mails (`sendMail`): those need `mail.send`", () => {
        expect(make({ ...testCase.config, apiKey: KEY }).sendMail).toBeUndefined()
      })
    } else {
      it("sends core's other mails through the same API (`sendMail`), a refusal an EmailSignInError without the key", async () => {
        received.length = 0
        const provider = make({ ...testCase.config, apiKey: KEY, apiUrl })
        const message = { to: RECIPIENT, subject: "Your sign-in code", text: "Your code is 731904.", html: "<p>Your code is <b>731904</b>.</p>" }
        await provider.sendMail?.(message, provider)
        expect(received).toHaveLength(1)
        const [sent] = received
        expect(sent?.path).toBe(testCase.path)
        expect(sent?.headers[testCase.auth[0]]).toBe(testCase.auth[1])
        const body = JSON.stringify(sent?.body)
        for (const part of [RECIPIENT, message.subject, message.text, message.html]) expect(body).toContain(JSON.stringify(part).slice(1, -1))
        failing = true
        try {
          const refused = await Promise.resolve(provider.sendMail?.(message, provider)).then(() => undefined, (error: unknown) => error)
          expect(refused).toBeInstanceOf(Error)
          expect((refused as Error).message).toMatch(/refused the email: HTTP/)
          expect((refused as Error).message).not.toContain(KEY)
        } finally {
          failing = false
        }
      })
    }

    it(`reads the key from ${testCase.keyVariable}, and names \`apiKey\` when there is none`, () => {
      vi.stubEnv(testCase.keyVariable, "key-from-env")
      try {
        expect(make({ ...testCase.config })).toMatchObject({ apiKey: "key-from-env" })
      } finally {
        vi.unstubAllEnvs()
      }
      vi.stubEnv(testCase.keyVariable, "")
      try {
        expect(() => make({ ...testCase.config })).toThrow(Configuration)
        expect(() => make({ ...testCase.config })).toThrow(/set `apiKey`/)
      } finally {
        vi.unstubAllEnvs()
      }
    })

    it("refuses an apiUrl that would send the key over plain http to another host", () => {
      expect(() => make({ ...testCase.config, apiKey: KEY, apiUrl: "http://api.example.com" })).toThrow(/apiUrl/)
    })
  })
}
