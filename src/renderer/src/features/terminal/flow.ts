/**
 * Acknowledges rendered output to a PTY (flow control): xterm's write callbacks fire several
 * times per parse pass, and one request acknowledges them all. `send` is called at most once per
 * microtask, with the sum of the characters rendered since the last call.
 */
export function createAcker(send: (chars: number) => void): { rendered(chars: number): void } {
  let pending = 0
  let queued = false
  return {
    rendered(chars) {
      pending += chars
      if (queued) return
      queued = true
      queueMicrotask(() => {
        queued = false
        const chars = pending
        pending = 0
        if (chars > 0) send(chars)
      })
    },
  }
}
