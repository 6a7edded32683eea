import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'

/**
 * Starts the app in `root` (which holds index.html's boot shell until React's first render
 * replaces it). Loaded by `main.tsx` once the shell is painted; see there for why.
 *
 * The start is cut into tasks so that none holds the page for long (issue 30: no long task over
 * 50 ms). Evaluated all at once (React, the api with the contract's zod schemas, the stores, the
 * views) it was one task of 80–150 ms. Now this chunk is React alone; the event feed (the api, the
 * schemas, then the stores) is two chunks, each evaluated in a task of its own; the composition root (`App`:
 * the start screen, the top bar, the palette) is a third; and its first render is a transition,
 * which React renders in slices of ~5 ms, yielding to the browser between them. The workspace, the views and Monaco are chunks of their
 * own again (`App.tsx`, `views.tsx`), fetched when shown or in an idle moment.
 */
export async function startApp(root: HTMLElement): Promise<void> {
  // One after the other: fetched together, both graphs could complete on the same chunk's arrival
  // and be evaluated in one task again. The cost is one more local round trip.
  // The api (the connection, the contract's zod schemas) first, then the stores that use it.
  await import('../api')
  await yieldToBrowser()
  const { startEventFeed } = await import('./event-feed')
  // Before the first render, as the stores' own subscriptions used to start when they were imported.
  startEventFeed()
  await yieldToBrowser()
  const { App } = await import('./App')
  const reactRoot = createRoot(root)
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    )
  })
}

/** Ends the current task: what follows runs in a new one, after the browser has had its turn. */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
