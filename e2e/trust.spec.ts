import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

async function prompt(app: Page, text: string): Promise<void> {
  const message = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await message.fill(text)
  await message.press('Enter')
}

async function paletteCommand(app: Page, text: string): Promise<void> {
  await app.keyboard.press('Control+Shift+P')
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill(text)
  await command.press('Enter')
}

test("an untrusted project's SessionStart hook waits for the trust step, runs once trusted, and trust can be revoked", async ({
  app,
  projectDir,
  modelServer,
}) => {
  const marker = join(projectDir, 'session-started.marker')
  await mkdir(join(projectDir, '.claude'))
  await writeFile(
    join(projectDir, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] } }),
  )
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'First answer, untrusted.' }] } },
    { reply: { content: [{ type: 'text', text: 'Second answer, trusted.' }] } },
  ])

  await openByPath(app, projectDir)
  const dialog = app.getByRole('dialog', { name: `Trust the files in ${basename(projectDir)}?` })
  await expect(dialog).toBeVisible()
  const hooks = dialog.getByRole('region', { name: 'Hooks' })
  await expect(hooks.getByRole('listitem')).toHaveText(`SessionStart: touch ${marker} .claude/settings.json`)
  // The safe choice has the focus.
  await expect(dialog.getByRole('button', { name: 'Don’t trust' })).toBeFocused()
  await dialog.getByRole('button', { name: 'Don’t trust' }).click()
  await expect(dialog).toBeHidden()

  const chat = app.getByRole('region', { name: 'Chat' })
  await prompt(app, 'Hello before trust')
  await expect(chat.getByLabel('Assistant').last()).toContainText('First answer, untrusted.')
  await expect(chat).toContainText('not trusted')
  expect(existsSync(marker)).toBe(false)
  // Declined: the turn's end does not ask again about the same files.
  await expect(dialog).toBeHidden()

  await paletteCommand(app, 'review project trust')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Trust this project' }).click()
  await expect(dialog).toBeHidden()

  await app.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: 'New session' }).click()
  await prompt(app, 'Hello after trust')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Second answer, trusted.')
  await expect.poll(() => existsSync(marker)).toBe(true)

  await app.getByRole('button', { name: 'Settings' }).click()
  const settings = app.getByRole('dialog', { name: 'Settings' })
  const trusted = settings.getByRole('group', { name: 'Trusted projects' })
  await expect(trusted).toContainText(projectDir)
  const revoke = trusted.getByRole('button', { name: `Revoke trust in ${projectDir}` })
  await revoke.click()
  await expect(revoke).toHaveCount(0)
  await expect(trusted).not.toContainText(projectDir)
  await settings.getByRole('button', { name: 'Close' }).click()

  // Revoked: reviewing shows the folder untrusted again.
  await paletteCommand(app, 'review project trust')
  await expect(dialog.getByRole('button', { name: 'Trust this project' })).toBeVisible()
})
