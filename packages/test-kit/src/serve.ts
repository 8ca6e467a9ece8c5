/**
 * A Web-standard handler (`(request) => Response`, such as `Auth()`) served over real HTTP on
 * 127.0.0.1, for browser tests: Chromium then loads pages, cookies and scripts exactly as an app
 * serves them.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** A running server. */
export interface ServedHandler {
  /** `http://localhost:<port>`: a secure context, as WebAuthn needs, and a valid relying party id. */
  origin: string
  close(): Promise<void>
}

async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
  const body = chunks.length === 0 ? undefined : Buffer.concat(chunks)
  return new Request(new URL(incoming.url ?? "/", origin), { method: incoming.method, headers, body })
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = { "set-cookie": response.headers.getSetCookie() }
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  outgoing.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()))
}

/**
 * Serves `handler` on a free port of 127.0.0.1 until `close()`. A handler that throws answers
 * `500` with the error's text.
 *
 * @example
 * ```ts
 * const served = await serveHandler((request) => Auth(request, config))
 * await page.goto(`${served.origin}/api/auth/signin`)
 * ```
 */
export async function serveHandler(handler: (request: Request) => Response | Promise<Response>): Promise<ServedHandler> {
  let origin = ""
  const server = createServer((incoming, outgoing) => {
    toRequest(incoming, origin)
      .then(handler)
      .then((response) => send(response, outgoing))
      .catch((error: unknown) => outgoing.writeHead(500).end(String(error)))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://localhost:${String((server.address() as AddressInfo).port)}`
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      }),
  }
}
