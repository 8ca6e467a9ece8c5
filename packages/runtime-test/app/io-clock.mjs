// Cloudflare's clock as deployed: Date.now(), new Date() and performance.now() stand still while
// a worker computes and move only when I/O happens (a request arrives, a fetch answers, a timer
// fires), against timing side channels. Open-source workerd's clock runs like any other (its
// local development mode), so the worker installs this one first: core then runs on the clock
// it gets in production.
const RealDate = Date
const realNow = RealDate.now.bind(RealDate)
const realPerformanceNow = performance.now.bind(performance)
let now = realNow()
let performanceNow = realPerformanceNow()

/** Moves the clock to the real time: I/O happened. */
export function tick() {
  now = realNow()
  performanceNow = realPerformanceNow()
}

class IoDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(now)
    else super(...args)
  }

  static now() {
    return now
  }
}
globalThis.Date = IoDate
performance.now = () => performanceNow

const realFetch = globalThis.fetch
globalThis.fetch = async (...args) => {
  try {
    return await realFetch(...args)
  } finally {
    tick()
  }
}

const realSetTimeout = globalThis.setTimeout
globalThis.setTimeout = (callback, ms, ...args) =>
  realSetTimeout(
    (...given) => {
      tick()
      callback(...given)
    },
    ms,
    ...args,
  )
