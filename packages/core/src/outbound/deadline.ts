/**
 * One overall deadline for work made of several requests and hooks (a provider callback), and
 * the timeout of each request in it.
 */

/**
 * Runs `work` with an overall deadline: after `ms` its signal aborts with `expired` and the
 * result rejects with it, even when some part of the work ignores the signal (a provider's own
 * `profile` or `request` hook).
 *
 * @throws the `expired` error when the deadline passes; otherwise whatever `work` throws.
 */
export async function withDeadline<T>(ms: number, expired: Error, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort(expired)
      reject(expired)
    }, ms)
  })
  try {
    return await Promise.race([work(controller.signal), deadline])
  } finally {
    clearTimeout(timer)
  }
}

/** The timeout of one outbound request: its `signal`, and `clear()` to call once the request has ended. */
export interface RequestTimeout {
  readonly signal: AbortSignal
  clear(): void
}

/**
 * A signal for one outbound request that aborts with a `TimeoutError` after `ms`, or with the
 * reason of the first of `parents` (the callback's overall deadline, a hook's own signal) to abort.
 * The timer and the links to `parents` hold the signal strongly until `clear()` or the timeout:
 * Node 20's `AbortSignal.any` holds its sources weakly, so an `AbortSignal.timeout` combined with
 * a deadline there is collected under allocation pressure and never fires.
 */
export function requestTimeout(ms: number, ...parents: readonly (AbortSignal | undefined)[]): RequestTimeout {
  const controller = new AbortController()
  const linked = parents.filter((parent): parent is AbortSignal => parent !== undefined)
  const onAbort = (event: Event): void => {
    end()
    controller.abort((event.target as AbortSignal).reason)
  }
  const timer = setTimeout(() => {
    end()
    controller.abort(new DOMException(`The request did not finish within ${String(ms)} ms.`, "TimeoutError"))
  }, ms)
  // Like AbortSignal.timeout's own timer, it never keeps the process alive by itself.
  if (typeof timer === "object" && typeof timer.unref === "function") timer.unref()
  function end(): void {
    clearTimeout(timer)
    for (const parent of linked) parent.removeEventListener("abort", onAbort)
  }
  for (const parent of linked) {
    if (parent.aborted) {
      end()
      controller.abort(parent.reason)
      break
    }
    parent.addEventListener("abort", onAbort, { once: true })
  }
  return { signal: controller.signal, clear: end }
}

/**
 * Runs one outbound request, the reading of its answer included, under a {@link requestTimeout}
 * of `ms` that also ends with `parent` (an overall deadline) when there is one.
 *
 * @throws whatever `request` throws; a `TimeoutError` `DOMException` from the request when `ms` passes.
 */
export async function withRequestTimeout<T>(ms: number, parent: AbortSignal | undefined, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = requestTimeout(ms, parent)
  try {
    return await request(timeout.signal)
  } finally {
    timeout.clear()
  }
}

/**
 * One request through `fetcher` (an app's own `fetch` for a provider), or the global `fetch`
 * when there is none. An app's `fetch` may ignore `init.signal`: its answer is then raced
 * against the signal, so the request still ends with its timeout or deadline.
 *
 * @throws the signal's reason once it aborts; otherwise whatever the fetch throws.
 */
export async function fetchWithin(fetcher: typeof fetch | undefined, input: string | URL, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  if (fetcher === undefined) return fetch(input, init)
  const { signal } = init
  signal.throwIfAborted()
  let onAbort: (() => void) | undefined
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      const reason: unknown = signal.reason
      reject(reason instanceof Error ? reason : new DOMException("The request was aborted.", "AbortError"))
    }
    signal.addEventListener("abort", onAbort, { once: true })
  })
  try {
    const answer = Promise.resolve(fetcher(input, init))
    // A late failure of a request given up on is nobody's to handle.
    answer.catch(() => undefined)
    return await Promise.race([answer, aborted])
  } finally {
    if (onAbort !== undefined) signal.removeEventListener("abort", onAbort)
  }
}
