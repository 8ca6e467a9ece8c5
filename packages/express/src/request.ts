/**
 * An Express request as a web-standard `Request`: the URL as Express sees it (its `trust proxy`
 * setting decides whether forwarded headers count), and the body, read again if a body parser
 * already consumed it.
 */
import type { IncomingMessage } from "node:http"
import type { Request as ExpressRequest } from "express"

/** Headers Express has already applied (or refused) under `trust proxy`: core must not read them again. */
const APPLIED_BY_EXPRESS = ["x-forwarded-host", "x-forwarded-proto", "forwarded"]

/** Express 5's `req.host` keeps the port; Express 4's is a deprecated alias of `hostname` (no port). */
function isExpress4(req: ExpressRequest): boolean {
  return typeof (req as unknown as { param?: unknown }).param === "function"
}

/** The host the client asked for, with its port, as Express's `trust proxy` setting allows. */
function hostOf(req: ExpressRequest): string | undefined {
  if (!isExpress4(req)) return req.host
  // Express 4 has no trust-aware host with a port: ask its own trust function, as its `hostname` does.
  const trust = req.app.get("trust proxy fn") as (address: string | undefined, hop: number) => boolean
  const forwarded = trust(req.socket.remoteAddress, 0) ? req.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined
  return forwarded !== undefined && forwarded !== "" ? forwarded : req.get("host")
}

/**
 * The absolute URL of the request, or `undefined` when its Host (or a trusted forwarded host)
 * is not a plain `host[:port]`: a URL built from `evil.example/path` or `user@host` would name
 * another origin.
 */
function requestUrl(req: ExpressRequest): URL | undefined {
  const host = hostOf(req)
  if (host === undefined || host === "" || !req.originalUrl.startsWith("/")) return undefined
  let base: URL
  let url: URL
  try {
    base = new URL(`${req.protocol}://${host}`)
    url = new URL(`${base.origin}${req.originalUrl}`)
  } catch {
    return undefined
  }
  const plainHost = base.pathname === "/" && base.search === "" && base.hash === "" && base.username === "" && base.password === ""
  return plainHost && url.origin === base.origin ? url : undefined
}

function requestHeaders(req: ExpressRequest): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || APPLIED_BY_EXPRESS.includes(name)) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  return headers
}

/** A form body from what `express.urlencoded()` parsed: string fields (and arrays of them) only. */
function formBody(parsed: Record<string, unknown>): string {
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(parsed)) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) if (typeof item === "string") form.append(key, item)
  }
  return form.toString()
}

/**
 * The body again, in the form its content type says, when a body parser mounted before the
 * auth routes has read the stream; `undefined` when the stream is still unread. Core then
 * applies its own limits to what it gets, as to any request.
 */
function reparsedBody(req: ExpressRequest): string | Blob | undefined {
  if (!req.readableEnded) return undefined
  const parsed: unknown = req.body
  if (typeof parsed === "string") return parsed
  if (parsed instanceof Uint8Array) return new Blob([new Uint8Array(parsed)])
  if (typeof parsed !== "object" || parsed === null) return ""
  return req.is("application/json") !== false ? JSON.stringify(parsed) : formBody(parsed as Record<string, unknown>)
}

/**
 * The unread body as a stream. Cancelling it (core stops at its size limit) pauses the request
 * instead of destroying it, so the answer still reaches the client; the connection is closed
 * after that answer (see `sendResponse`).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk))
        if ((controller.desiredSize ?? 0) <= 0) req.pause()
      })
      req.once("end", () => {
        controller.close()
      })
      req.once("error", (error) => {
        controller.error(error)
      })
    },
    pull() {
      req.resume()
    },
    cancel() {
      req.pause()
      req.removeAllListeners("data")
    },
  })
}

/**
 * Converts an Express request to a `Request` for core, or `undefined` when it names no usable
 * origin (see {@link requestUrl}).
 */
export function toWebRequest(req: ExpressRequest, options: { body: boolean }): Request | undefined {
  const url = requestUrl(req)
  if (url === undefined) return undefined
  const headers = requestHeaders(req)
  const method = req.method.toUpperCase()
  if (!options.body || method === "GET" || method === "HEAD") return new Request(url, { method, headers })
  const reparsed = reparsedBody(req)
  if (reparsed !== undefined) {
    // These described the bytes on the wire, not the body as written again; core measures what it reads.
    headers.delete("content-length")
    headers.delete("transfer-encoding")
    headers.delete("content-encoding")
    return new Request(url, { method, headers, body: reparsed })
  }
  return new Request(url, { method, headers, body: bodyStream(req), duplex: "half" } as RequestInit)
}
