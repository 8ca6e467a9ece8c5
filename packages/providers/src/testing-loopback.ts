/**
 * What the provider kit's simulated providers share: a real HTTP server on 127.0.0.1 stands in
 * for a provider's own (https) URLs, and a `fetch` wrapper sends every request for them there,
 * with the URL it was meant for in a header.
 */
import type { IncomingMessage, Server } from "node:http"
import type { AddressInfo } from "node:net"

/** The origin the kit's tests serve the app on: its requests are never redirected. */
export const APP = "http://localhost:3000"
const HEADER = "x-simulated-original-url"

/** A URL without its query: what tells the simulated endpoints apart. */
export function place(url: string): string {
  const parsed = new URL(url)
  return `${parsed.origin}${parsed.pathname}`
}

/** A request's body, as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      resolve(Buffer.concat(chunks).toString("utf8"))
    })
    request.on("error", reject)
  })
}

/** The URL the app asked for, before the `fetch` of {@link listenBehindFetch} sent it here. */
export function originalUrl(request: IncomingMessage): URL {
  const original = request.headers[HEADER]
  return new URL(typeof original === "string" ? original : `http://127.0.0.1${request.url ?? "/"}`)
}

/**
 * Starts `server` on a free port of 127.0.0.1, and answers a `fetch` that sends it every request
 * except the app's and loopback ones, which go out as they are.
 */
export async function listenBehindFetch(server: Server): Promise<typeof fetch> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const loopback = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const realFetch = globalThis.fetch
  return async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    if (url.hostname === "127.0.0.1" || url.origin === APP) return realFetch(request)
    const headers = new Headers(request.headers)
    headers.set(HEADER, url.href)
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer()
    return realFetch(`${loopback}${url.pathname}${url.search}`, { method: request.method, headers, body, signal: request.signal, redirect: "manual" })
  }
}
