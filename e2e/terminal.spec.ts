import { expect, test } from './fixtures'
import { openByPath } from './support/app'

test('the terminal runs a real shell in the project folder', async ({ app, projectDir }) => {
  await openByPath(app, projectDir)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await expect(terminal.getByRole('status')).toHaveText('Running')
  // xterm's DOM renderer: one div per screen row.
  const rows = terminal.locator('.xterm-rows > div')

  await terminal.locator('.xterm').click()
  await app.keyboard.type('echo hi')
  await app.keyboard.press('Enter')
  // The echoed command line also contains "hi"; the output is a row that is exactly "hi".
  await expect(rows.filter({ hasText: /^\s*hi\s*$/ })).toHaveCount(1)

  await app.keyboard.type('pwd')
  await app.keyboard.press('Enter')
  await expect(rows.filter({ hasText: new RegExp(`^\\s*${projectDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) })).toHaveCount(1)
})
