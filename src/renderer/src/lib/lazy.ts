import { createElement, lazy, useState, type ComponentProps, type ComponentType, type FunctionComponent } from 'react'

/** A component whose code arrives on first use, and which can be fetched ahead of time. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where the component is used
export type LazyComponent<C extends ComponentType<any>> = FunctionComponent<ComponentProps<C>> & {
  /** Fetches the component's chunk now (at idle, before the user asks for it); resolves when it is in. */
  preload(): Promise<void>
  /** Whether the chunk is in: a component mounted now renders at once, without suspending. */
  loaded(): boolean
}

/**
 * `React.lazy` for a named export (our components are named, never default): the module is
 * fetched the first time the component renders, in its own chunk — or earlier, by `preload()`.
 *
 * Why not plain `React.lazy` plus an early `import()`: `React.lazy` suspends on its first render
 * even when the chunk is already in, and React holds back revealing suspended content for up to
 * 300 ms after it showed the fallback (its "fallback throttle"). A dialog opened for the first time
 * then took ~300 ms longer than every later open. Here, once the module is in, a newly mounted
 * instance renders the component directly: no suspension, no throttle. An instance keeps the
 * path it mounted with, so a module arriving while it is on screen never remounts it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where the component is used
export function lazyNamed<K extends string, C extends ComponentType<any>>(load: () => Promise<Record<K, C>>, name: K): LazyComponent<C> {
  let loaded: C | undefined
  const fetch = async () => {
    const component = (await load())[name]
    loaded = component
    // Tests wait for this mark to know a first render will not suspend.
    performance.mark(`sous:lazy:${name}`)
    return component
  }
  const Suspending = lazy(async () => ({ default: await fetch() }))
  const Lazy = ((props: ComponentProps<C>) => {
    // In an object: useState would call a component given to it directly as an initializer.
    const [chosen] = useState(() => ({ type: (loaded ?? Suspending) as ComponentType<ComponentProps<C>> }))
    return createElement(chosen.type, props)
  }) as LazyComponent<C>
  Lazy.displayName = `Lazy(${name})`
  Lazy.preload = async () => void (await fetch())
  Lazy.loaded = () => loaded !== undefined
  return Lazy
}
