import './app/base.css'

/**
 * The entry: only the stylesheet and this. The app (React, the stores, every view in the first
 * chunk: ~600 kB) is imported after index.html's boot shell has been painted. Imported at once,
 * its evaluation ran before the browser's first paint and held the shell back by that long task
 * (first contentful paint 270–380 ms, bench/startup.bench.ts); now the shell paints as soon as the
 * HTML and the stylesheet are in. A hidden page (a window not shown yet) paints no frame, so it
 * starts at once; the timer is the fallback should a frame never come.
 */
const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
let started = false
const start = (): void => {
  if (started) return
  started = true
  import('./app/start')
    .then(({ startApp }) => startApp(root))
    .catch((error: unknown) => {
      // A chunk that cannot be fetched (the server went away, a stale build): say so in the shell.
      root.textContent = `Sous could not start: ${error instanceof Error ? error.message : String(error)}. Reload the window to try again.`
      root.setAttribute('role', 'alert')
    })
}
if (document.visibilityState === 'visible') {
  // A frame callback runs just before the paint; the task it queues runs after it.
  requestAnimationFrame(() => setTimeout(start, 0))
  setTimeout(start, 250)
} else start()
