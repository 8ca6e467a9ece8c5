/** The browser's side of each benchmarked operation, the same for both implementations. */
import type { Impl } from "./impls.js"
import { ORIGIN } from "./impls.js"
import { Jar } from "./jar.js"

async function call(impl: Impl, jar: Jar, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  const cookie = jar.header()
  if (cookie !== "") headers.set("cookie", cookie)
  const response = await impl.handle(new Request(new URL(path, ORIGIN), { ...init, headers }))
  jar.store(response)
  return response
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message)
}

/** `GET /csrf` then `POST /signin/:id`; returns the provider's authorization URL. */
export async function signInStart(impl: Impl, jar: Jar): Promise<string> {
  const { csrfToken } = (await (await call(impl, jar, "/api/auth/csrf")).json()) as { csrfToken: string }
  const response = await call(impl, jar, "/api/auth/signin/bench", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${ORIGIN}/dashboard` }),
  })
  const location = response.headers.get("location") ?? ""
  expect(response.status === 302 && location.includes("/authorize?"), `${impl.name}: sign-in start answered ${response.status} ${location}`)
  await response.arrayBuffer()
  return location
}

/** A whole sign-in: start, the provider's redirect back, the callback, and the first session read. */
export async function fullSignIn(impl: Impl): Promise<Jar> {
  const jar = new Jar()
  const authorization = await signInStart(impl, jar)
  const redirect = await fetch(authorization, { redirect: "manual" })
  await redirect.arrayBuffer()
  const callback = redirect.headers.get("location") ?? ""
  const landed = await call(impl, jar, callback)
  const target = landed.headers.get("location") ?? ""
  expect(landed.status === 302 && target === `${ORIGIN}/dashboard`, `${impl.name}: callback answered ${landed.status} ${target}`)
  await landed.arrayBuffer()
  await readSession(impl, jar)
  return jar
}

/** `GET /session` with the session cookie; fails unless a session comes back. */
export async function readSession(impl: Impl, jar: Jar): Promise<void> {
  const response = await call(impl, jar, "/api/auth/session")
  const body = await response.text()
  expect(response.status === 200 && body.includes("Bench User"), `${impl.name}: session read answered ${response.status} ${body.slice(0, 80)}`)
}
