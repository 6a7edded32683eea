import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { loadInSteps, yieldToBrowser } from '../lib/load-in-steps'

/**
 * Starts the app in `root` (which holds index.html's boot shell until React's first render
 * replaces it). Loaded by `main.tsx` once the shell is painted; see there for why.
 *
 * The start is cut into tasks so that none holds the page for long (issue 30: no long task over
 * 50 ms). Evaluated all at once (React, the api with the contract's zod schemas, the stores, the
 * views) it was one task of 80–150 ms. Now this chunk is React alone; the event feed (the api, zod,
 * a first schema, then the stores) is four chunks, each evaluated in a task of its own; the
 * composition root (`App`: the start screen, the top bar, the palette) is a fifth; and its first render is a transition,
 * which React renders in slices of ~5 ms, yielding to the browser between them. The workspace, the views and Monaco are chunks of their
 * own again (`App.tsx`, `views.tsx`), fetched when shown or in an idle moment.
 */
export async function startApp(root: HTMLElement): Promise<void> {
  // One after the other, each evaluated in a task of its own (lib/load-in-steps.ts): the socket
  // key, the api (the connection), zod, one schema, then the stores. zod and the first object schema come apart
  // from the stores because the shared modules the stores use build schemas as they load: zod's
  // evaluation with theirs was most of the event feed's task (13–35 ms of zod alone at load
  // average 10, docs/design/startup.md), and the first object schema pays zod's own set-up again.
  // Through modules of the app's, not `import('zod')`: the whole namespace would be bundled then
  // (386 kB instead of the 92 kB the app uses).
  const { startEventFeed } = await loadInSteps([
    // The socket key first (localStorage, the address bar), then the api, which opens the socket;
    // the desktop app's preload needs no key (and no socket).
    () => import('../api/socket-key').then(({ pageSocketProtocols }) => void (window.sous ?? pageSocketProtocols())),
    () => import('../api'),
    () => import('../lib/zod-jitless'),
    () => import('../../../shared/protocol/task'),
    () => import('./event-feed'),
  ])
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
