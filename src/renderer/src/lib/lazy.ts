import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

/**
 * `React.lazy` for a named export (our components are named, never default): the module is
 * fetched the first time the component renders, in its own chunk. Pass the same `load` function
 * to warm the chunk up ahead of time; the browser fetches a module once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- props are checked where the component is used
export function lazyNamed<K extends string, C extends ComponentType<any>>(load: () => Promise<Record<K, C>>, name: K): LazyExoticComponent<C> {
  return lazy(async () => ({ default: (await load())[name] }))
}
