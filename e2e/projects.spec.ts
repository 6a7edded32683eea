import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { dropFolder, expectProjectOpen, openByPath } from './support/app'

test.describe('opening a project', () => {
  test('by dropping a folder anywhere on the window', async ({ app, projectDir }) => {
    await expect(app.getByRole('region', { name: 'Open a project' })).toBeVisible()
    await dropFolder(app, projectDir, 'h1')
    await expectProjectOpen(app, projectDir)
  })

  test('a drop replaces the open project', async ({ app, projectDir }) => {
    await openByPath(app, projectDir)
    const other = await mkdtemp(join(tmpdir(), 'sous-e2e-other-'))
    try {
      await dropFolder(app, other, '.conversation')
      await expectProjectOpen(app, other)
    } finally {
      await rm(other, { recursive: true, force: true })
    }
  })

  test('by typing a path, with a clear error for something that is not a folder', async ({ app, projectDir }) => {
    const file = join(projectDir, 'README.md')
    const panel = app.getByRole('region', { name: 'Open a project' })
    const field = panel.getByRole('textbox', { name: 'Project folder path' })
    await field.fill(file)
    await field.press('Enter')
    await expect(panel.getByRole('alert')).toContainText(`Not a folder: ${file}`)
    await expect(field).toHaveValue(file) // Nothing typed is lost.

    await field.fill(join(projectDir, 'missing'))
    await field.press('Enter')
    await expect(panel.getByRole('alert')).toContainText('No such folder')

    await openByPath(app, projectDir)
  })

  test('from the recent projects', async ({ app, projectDir }) => {
    await openByPath(app, projectDir)
    await app.getByRole('button', { name: 'Open another…' }).click()
    const recent = app.getByRole('navigation', { name: 'Recent projects' })
    await expect(recent.getByRole('button').first()).toContainText(projectDir)
    await recent.getByRole('button', { name: new RegExp(projectDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click()
    await expectProjectOpen(app, projectDir)
  })

  test('the folder picker is offered only where the host has one', async ({ app, host }) => {
    const picker = app.getByRole('button', { name: 'Choose folder…' })
    if (host === 'browser') await expect(picker).toHaveCount(0)
    else await expect(picker).toBeVisible()
  })
})
