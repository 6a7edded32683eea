import { setMaxListeners } from 'node:events'

/**
 * An abort controller whose signal every concurrent call of one reply listens to: each tool call
 * while it runs (`runToolCall`'s race), each subagent it starts while that runs in the foreground
 * (`AgentRecord.beginRun`). A reply may start sixty agents at once, so the listeners legitimately
 * outnumber Node's leak threshold (10) and it would print a `MaxListenersExceededWarning` for
 * nothing. The limit is lifted for this signal only; the listeners are still removed as each call
 * or run ends (`fan-out.test.ts` checks that none are left behind).
 */
export function fanOutController(): AbortController {
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  return controller
}
