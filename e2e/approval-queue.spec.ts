import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

const bash = (id: string, command: string) => ({ reply: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } })
const text = (t: string) => ({ reply: { content: [{ type: 'text', text: t }] } })

test('keyboard: typing never approves; y in the panel approves, Ctrl+Alt+N rejects from outside text fields', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([bash('toolu_1', 'touch first.txt'), bash('toolu_2', 'touch second.txt'), text('Done.')])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('Make two files')
  await input.press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByLabel('Command')).toHaveText('touch first.txt')
  await expect(panel.getByLabel('1 pending')).toBeVisible()

  // Typing y / n in the message box is just typing.
  await input.click()
  await app.keyboard.type('yn')
  await expect(input).toHaveValue('yn')
  await expect(panel.getByLabel('Command')).toHaveText('touch first.txt')

  await panel.getByRole('heading', { name: /Needs your approval/ }).click()
  await app.keyboard.press('y')
  await expect(panel.getByLabel('Command')).toHaveText('touch second.txt')
  expect(existsSync(join(projectDir, 'first.txt'))).toBe(true)

  // In a text field Ctrl+Alt+N belongs to the field (on many layouts it types a letter).
  await input.click()
  await app.keyboard.press('Control+Alt+n')
  await expect(panel.getByLabel('Command')).toHaveText('touch second.txt')
  await input.blur()
  await app.keyboard.press('Control+Alt+n')
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('Done.')
  await expect(panel).toHaveCount(0)
  expect(existsSync(join(projectDir, 'second.txt'))).toBe(false)
  await expect(input).toHaveValue('yn')
})

test('an approval in a background window raises an OS notification', async ({ app, projectDir, modelServer }) => {
  await app.addInitScript(() => {
    // Runs in the page; the e2e project has no DOM types, so the globals are reached by shape.
    const page = globalThis as unknown as { document: { hasFocus(): boolean }; shownNotifications: string[]; Notification: unknown }
    const shown: string[] = []
    page.shownNotifications = shown
    // The window is in the background, and the user allowed notifications.
    page.document.hasFocus = () => false
    class RecordingNotification {
      static permission = 'granted'
      static requestPermission = () => Promise.resolve('granted')
      onclick: (() => void) | null = null
      constructor(title: string, options?: { body?: string }) {
        shown.push(`${title}: ${options?.body ?? ''}`)
      }
      close(): void {}
    }
    page.Notification = RecordingNotification
  })
  await app.reload()
  await modelServer.setScenario([bash('toolu_n', 'touch noted.txt'), text('ok')])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Make a file')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel).toBeVisible()
  await expect.poll(() => app.evaluate(() => (globalThis as unknown as { shownNotifications: string[] }).shownNotifications)).toEqual(['Sous needs your approval: Bash: touch noted.txt'])
  // Answer it: the host is shared by the specs of this worker, and an approval left waiting there
  // is counted in every later page's inbox and title (the inbox spec's "(3) Sous" saw a fourth).
  await panel.getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(panel).toHaveCount(0)
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText('ok')
})

test('Stop while an approval waits cancels it and nothing runs', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([bash('toolu_s', 'touch never.txt'), text('should not be asked for')])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Make a file')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByLabel('Command')).toHaveText('touch never.txt')
  await chat.getByRole('button', { name: 'Stop' }).click()
  await expect(panel).toHaveCount(0)
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('Stopped')
  expect(existsSync(join(projectDir, 'never.txt'))).toBe(false)
})
