import { mkdir, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'
import { openMemoryBrowser, projectMemoryDir, setMemoryPreferences, writeMemoryFile } from './support/memory'

/**
 * Not a test: renders the README's picture of the memory browser (memories by scope and type, one
 * the agent just wrote highlighted with its Undo, the frontmatter form and the body in Monaco).
 *   SOUS_MEMORY_SCREENSHOT=docs/memory.png npx playwright test e2e/memory-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_MEMORY_SCREENSHOT

test.skip(!target, 'Set SOUS_MEMORY_SCREENSHOT=<file.png> to render the memory browser screenshot.')

test.afterEach(async ({ sousHome }) => {
  await setMemoryPreferences(sousHome, { autoMemory: false })
  // The user's memory folder belongs to the worker's $SOUS_HOME: leave it empty for other specs.
  await rm(join(sousHome, 'memory'), { recursive: true, force: true })
})

test('memory browser screenshot', async ({ app, projectDir, sousHome, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(project, { recursive: true })
  const memoryDir = projectMemoryDir(sousHome, project)
  await writeMemoryFile(join(sousHome, 'memory'), 'user_role.md', {
    name: 'Role',
    description: 'Backend engineer, new to React',
    type: 'user',
    body: 'Explain frontend changes in terms of the backend ideas they resemble.',
  })
  await writeMemoryFile(memoryDir, 'project_release_freeze.md', {
    name: 'Release freeze',
    description: 'No merges to main from 2026-03-05 until the 1.4 release',
    type: 'project',
    body: 'The freeze starts Thursday 2026-03-05; only release fixes land until 1.4 ships.',
  })
  await writeMemoryFile(memoryDir, 'reference_bug_tracker.md', {
    name: 'Bug tracker',
    description: 'Pantry bugs are tracked in Linear, project PAN',
    type: 'reference',
    body: 'https://linear.app/pantry/project/PAN',
  })
  await setMemoryPreferences(sousHome, { autoMemory: true })
  const memory = {
    scope: 'project',
    name: 'Use pnpm',
    description: 'Scripts run with pnpm here, never npm',
    type: 'feedback',
    body: 'Run scripts and installs with pnpm.\n\n**Why:** npm rewrote the lockfile and broke the CI cache.\n**How to apply:** `pnpm install`, `pnpm test`; never `npm` in this repository.',
  }
  await modelServer.setScenario([
    // Recall runs beside the turn, in its own lane (nothing relevant); then the turn and the extraction agent.
    { reply: { content: [{ type: 'text', text: '{"memories": []}' }] }, forModel: 'claude-haiku-4-5' },
    { reply: { content: [{ type: 'text', text: 'Understood: pnpm from now on.' }] } },
    // The extraction agent's answer streams slowly, so the browser is open when it lands (highlighted).
    { reply: { content: [{ type: 'text', text: JSON.stringify({ memories: [memory] }) }] }, chunkSize: 12, delayMs: 80 },
  ])
  await app.setViewportSize({ width: 1280, height: 820 })
  await openByPath(app, project)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill("No, don't use npm in this repo: use pnpm.")
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant')).toContainText('Understood: pnpm from now on.')

  const dialog = await openMemoryBrowser(app)
  const row = dialog.getByRole('listitem').filter({ hasText: 'Use pnpm' })
  await expect(row).toContainText('written by the agent')
  await row.getByRole('button', { name: /^Use pnpm/ }).click()
  await expect(dialog.getByRole('form', { name: 'Memory Use pnpm' }).locator('.monaco-editor')).toBeVisible()
  await app.mouse.move(0, 0)
  await app.screenshot({ path: resolve(target ?? 'memory.png') })
})
