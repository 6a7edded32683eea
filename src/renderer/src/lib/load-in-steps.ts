/** Ends the current task: what follows runs in a new one, after the browser has had its turn. */
export function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

/**
 * Imports `steps` one after the other, each evaluated in a task of its own, and resolves with the
 * last one's module. For a lazy chunk whose libraries are costly to evaluate: imported with the
 * chunk, a library's evaluation and the chunk's were one task (issue 30: no long task over 50 ms).
 * One after the other, not together: fetched together, the graphs could complete on the same
 * chunk's arrival and be evaluated in one task again. A library already in costs nothing but the
 * yield. Contract: rejects as the first import that fails does.
 */
export async function loadInSteps<T>(steps: readonly [...Array<() => Promise<unknown>>, () => Promise<T>]): Promise<T> {
  for (const step of steps.slice(0, -1)) {
    await step()
    await yieldToBrowser()
  }
  return (steps.at(-1) as () => Promise<T>)()
}
