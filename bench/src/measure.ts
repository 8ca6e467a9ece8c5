/** Throughput with N concurrent clients for a fixed time, and medians over rounds. */

export async function opsPerSecond(op: (worker: number) => Promise<void>, concurrency: number, durationMs: number): Promise<number> {
  let done = 0
  const end = performance.now() + durationMs
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < end) {
        await op(worker)
        done++
      }
    }),
  )
  return (done * 1000) / (performance.now() - started)
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
