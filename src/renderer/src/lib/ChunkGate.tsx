import { useEffect, useState, type ReactNode } from 'react'

/**
 * Mounts `children()` once `chunk` (a `lazyNamed` component's) is in, and nothing before: a lazy
 * component mounted after its chunk arrived renders directly, while one that suspends is revealed
 * no sooner than React's fallback throttle allows (up to 300 ms after the fallback showed, however
 * quick the chunk). A chunk that fails to load is thrown to the nearest error boundary
 * (`LazyBoundary`), as a suspended one would be.
 */
export function ChunkGate({ chunk, children }: { chunk: { loaded(): boolean; preload(): Promise<void> } | undefined; children: () => ReactNode }) {
  const [ready, setReady] = useState(() => !chunk || chunk.loaded())
  const [failure, setFailure] = useState<{ error: unknown } | null>(null)
  useEffect(() => {
    if (ready || !chunk) return
    let live = true
    chunk.preload().then(
      () => live && setReady(true),
      (error: unknown) => live && setFailure({ error }),
    )
    return () => {
      live = false
    }
  }, [chunk, ready])
  if (failure) throw failure.error
  return ready ? children() : null
}
