import { createElement, lazy, useState, type ComponentProps, type ComponentType, type FunctionComponent } from 'react'

/** A component fetched in its own chunk, with a way to fetch it ahead of time. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where the component is used
export type LazyComponent<C extends ComponentType<any>> = FunctionComponent<ComponentProps<C>> & {
  /** Fetches the chunk now (at idle, before anyone asks), so the first render does not wait for it. Rejects when the fetch fails. */
  preload(): Promise<void>
}

/**
 * `React.lazy` for a named export (our components are named, never default): the module is
 * fetched the first time the component renders, in its own chunk — or earlier with `preload()`.
 *
 * Why not `React.lazy` alone: it calls its loader on the first render and suspends even when the
 * module is already there (it learns so only in a `then`), and React then holds the revealed
 * content back for its fallback throttle (300 ms in React 19). A component whose chunk has
 * arrived (preloaded, or loaded by an earlier render) is rendered directly instead, in the same
 * commit. Which of the two an instance uses is chosen once, when it mounts: switching later would
 * remount it and lose its state.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export function lazyNamed<K extends string, C extends ComponentType<any>>(load: () => Promise<Record<K, C>>, name: K): LazyComponent<C> {
  let loaded: C | undefined
  let loading: Promise<C> | undefined
  const fetch = (): Promise<C> => {
    if (!loading) {
      const attempt = load().then((module) => {
        // Tests and benches wait for this mark to know the view renders without suspending.
        performance.mark(`sous:lazy:${name}`)
        return (loaded = module[name])
      })
      loading = attempt
      // A failed fetch (the host was briefly unreachable) may be tried again by the next caller.
      attempt.catch(() => {
        if (loading === attempt) loading = undefined
      })
    }
    return loading
  }
  const Suspending = lazy(async () => ({ default: await fetch() }))
  function Named(props: ComponentProps<C>) {
    const [ready] = useState(() => loaded)
    return createElement(ready ?? Suspending, props)
  }
  Named.displayName = name
  return Object.assign(Named, { preload: () => fetch().then(() => undefined) })
}
