import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { startEventFeed } from './event-feed'

/**
 * Starts the app in `root` (which holds index.html's boot shell until React's first render
 * replaces it). Loaded by `main.tsx` once the shell is painted; see there for why.
 */
export function startApp(root: HTMLElement): void {
  // Before the first render, as the stores' own subscriptions used to start when they were imported.
  startEventFeed()
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}
