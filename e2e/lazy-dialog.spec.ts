import type { Page, Route } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * A dialog opened before its chunk is in (`ChunkGate`, `ViewHost`): the host shows nothing while
 * the chunk is on its way and mounts the dialog once it arrives (no Suspense, so no fallback
 * throttle); a chunk that cannot load says so in a dialog that can be closed.
 */

const CHUNK = /\/assets\/ParallelView-[^/]*\.js$/

async function openParallel(app: Page): Promise<void> {
  await app.keyboard.press('Control+Shift+P')
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill('Run on N')
  await command.press('Enter')
}

test('a dialog opened while its chunk is held back appears once the chunk arrives', async ({ app, projectDir }) => {
  const held: Route[] = []
  let release = false
  await app.route(CHUNK, (route) => (release ? route.continue() : void held.push(route)))
  // Routing turns the cache off; the reload makes the idle warm-up ask for the chunk again.
  await app.reload()
  await openByPath(app, projectDir)
  await openParallel(app)
  await expect.poll(() => held.length).toBeGreaterThan(0)
  await expect(app.getByRole('dialog', { name: 'Command palette' })).toBeHidden()
  await expect(app.getByRole('dialog', { name: 'Parallel sessions' })).toHaveCount(0)
  release = true
  for (const route of held.splice(0)) await route.continue()
  const view = app.getByRole('dialog', { name: 'Parallel sessions' })
  await expect(view.getByRole('form', { name: 'Run on N' })).toBeVisible()
})

test('a dialog whose chunk cannot load says so, and closes', async ({ app, projectDir }) => {
  await app.route(CHUNK, (route) => route.abort('failed'))
  await app.reload()
  await openByPath(app, projectDir)
  await openParallel(app)
  const view = app.getByRole('dialog', { name: 'Parallel sessions' })
  await expect(view.getByRole('alert')).toContainText('Parallel sessions could not be shown')
  await view.getByRole('button', { name: 'Close' }).first().click()
  await expect(view).toHaveCount(0)
})
