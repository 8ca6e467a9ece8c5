/**
 * One overall deadline for work made of several requests and hooks (a provider callback).
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

/**
 * A signal that aborts when any of `signals` does. `AbortSignal.any` where the runtime has it;
 * combined by hand where it does not (Next.js's edge sandbox).
 */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any
  if (typeof any === "function") return any.call(AbortSignal, [...signals])
  const controller = new AbortController()
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener(
      "abort",
      () => {
        controller.abort(signal.reason)
      },
      { once: true },
    )
  }
  return controller.signal
}
