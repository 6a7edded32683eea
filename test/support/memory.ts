import type { AgentEvent } from '../../src/shared/protocol/agent-event'

/**
 * Resolves once the recall model's answer is in (its `usage` event, `agentId: 'memory'`, is among
 * `events`, the array a test's hub listener fills). A scripted turn step awaits it to hold the
 * turn's first reply until then, so "the first request after the recall arrived" is certain.
 */
export function recallAnswered(events: readonly AgentEvent[]): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (events.some((event) => event.type === 'usage' && event.agentId === 'memory')) {
        clearInterval(check)
        resolve()
      }
    }, 5)
  })
}
