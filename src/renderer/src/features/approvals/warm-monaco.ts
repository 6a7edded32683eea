import { api } from '../../api'
import { loadMonaco } from '../../lib/monaco'

/** The tools whose approval is a diff in Monaco (`EditApproval`). */
const DIFF_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit'])

/**
 * Evaluates Monaco (fetched at idle by `preloadMonaco`) when the agent starts a call to a tool
 * whose approval is a diff, while the model is still streaming that call's input: the first diff
 * then seldom waits for Monaco's evaluation (90–300 ms), and the window's start never does
 * (issue 30). Once Monaco is in, it stops listening. Returns the function that stops it sooner.
 */
export function warmMonacoOnEdits(): () => void {
  let idle: number | undefined
  const stop = api.on('agent.event', (event) => {
    if (event.type !== 'tool_use_start' || !DIFF_TOOLS.has(event.name) || idle !== undefined) return
    // Not in the event's own task: the stream's other listeners render first.
    idle = requestIdleCallback(
      () => {
        loadMonaco().then(stop, () => (idle = undefined)) // a failed load is tried again at the next edit
      },
      { timeout: 200 },
    )
  })
  return () => {
    stop()
    if (idle !== undefined) cancelIdleCallback(idle)
  }
}
