import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT, sourceFiles } from './source-scan'

/**
 * The renderer's always-on event subscriptions all start in one place, `app/event-feed.ts`: no
 * module subscribes to the host's events (or the connection's state) as a side effect of being
 * imported. A subscription at a module's top level is a statement that starts in column 0;
 * subscriptions inside functions and effects (a terminal's PTY, a dialog's lifetime) are indented.
 */
const FEED = 'src/renderer/src/app/event-feed.ts'
const TOP_LEVEL = /^(?:void\s+)?(?:api\.on|connection\.onState)\(/m

/** The files (other than the feed) that subscribe at import time. */
function subscribingAtImport(files: Array<{ path: string; text: string }>): string[] {
  return files.filter(({ path, text }) => path !== FEED && TOP_LEVEL.test(text)).map(({ path }) => path)
}

describe('renderer event subscriptions', () => {
  it('start only in app/event-feed.ts', () => {
    const files = sourceFiles('src/renderer').map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
    expect(files.some(({ path }) => path === FEED)).toBe(true)
    expect(subscribingAtImport(files)).toEqual([])
  })

  it('finds a module that subscribes when imported, and not one that subscribes in a function', () => {
    const top = { path: 'src/renderer/src/features/x/store.ts', text: "import { api } from '../../api'\napi.on('agent.event', (event) => fold(event))\n" }
    const inside = { path: 'src/renderer/src/features/y/wire.ts', text: "export function wire() {\n  return api.on('pty.data', write)\n}\n" }
    expect(subscribingAtImport([top, inside])).toEqual([top.path])
  })
})
