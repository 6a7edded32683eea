import { mkdir, readFile, realpath, rm, writeFile, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { sshdProblem, startTestSshd } from '../test/support/sshd'
import type { Locator, Page } from '@playwright/test'
import { expect, prepareAppHome, startServe, test } from './fixtures'
import { sendMessage } from './support/app'

const root = resolve(import.meta.dirname, '..')

// A project on "another machine": a second Sous behind a throwaway sshd on 127.0.0.1, reached by
// the app's own `sous serve` through the system ssh (SOUS_SSH names the test's client config).
test('Open remote project… over ssh: the tab names the host, and the file tree, an approval and the edit are the remote’s', async ({ host, modelServer, lazyChromium, viewport }) => {
  test.skip(host === 'electron', 'the browser host is enough: the form and the routing are the same code')
  const problem = sshdProblem()
  test.skip(problem !== undefined, problem)
  const sshd = await startTestSshd()
  const work = await realpath(await mkdtemp(join(tmpdir(), 'sous-e2e-remote-')))
  const project = join(work, 'project')
  await mkdir(project)
  await writeFile(join(project, 'README.md'), '# On the remote\n')
  const localHome = await prepareAppHome(join(work, 'local-home'))
  const { url, child } = await startServe(localHome, modelServer.url, { SOUS_SSH: sshd.sshCommand })
  const context = await (await lazyChromium()).newContext({ viewport })
  try {
    const app = await context.newPage()
    await app.goto(url)
    // From the command palette: the form takes the focus.
    const command = await openPalette(app)
    await command.fill('Open remote project')
    await command.press('Enter')
    const form = app.getByRole('region', { name: 'Open remote project' })
    await expect(form.getByRole('textbox', { name: 'Destination' })).toBeFocused()
    await form.getByRole('textbox', { name: 'Destination' }).fill(`${sshd.destination}:${project}`)
    await form.getByText('Command that starts Sous there').click()
    const remoteHome = join(work, 'remote-home')
    // The remote Sous has its own settings: memory off there too, as prepareAppHome does here.
    await prepareAppHome(join(remoteHome, '.sous'))
    await form.getByRole('textbox', { name: 'Remote Sous command' }).fill(`env HOME=${remoteHome} SOUS_HOME=${join(remoteHome, '.sous')} SOUS_HOST_GRACE_MS=5000 ${process.execPath} ${join(root, 'bin', 'sous.js')}`)
    await form.getByRole('button', { name: 'Open remote' }).click()

    await expect(app.getByRole('tab', { name: `project (${sshd.destination})` })).toBeVisible({ timeout: 30_000 })
    await expect(app.getByLabel('Current project')).toContainText(`ssh://${sshd.destination}${project}`)
    await expect(app.getByRole('tree', { name: 'Project files' }).getByRole('treeitem', { name: 'README.md' })).toBeVisible()

    await modelServer.setScenario([
      { reply: { content: [{ type: 'tool_use', id: 'toolu_remote_write', name: 'Write', input: { file_path: join(project, 'notes.md'), content: 'written on the remote\n' } }] } },
      { reply: { content: [{ type: 'text', text: 'Wrote the notes remotely.' }] } },
    ])
    const chat = await sendMessage(app, 'Write the notes')
    // The remote's approval, shown here with the remote path, answered here.
    const panel = app.getByRole('region', { name: 'Approvals' })
    await expect(panel.getByTestId('edit-approval')).toBeVisible()
    await expect(panel).toContainText(`ssh://${sshd.destination}${project}/notes.md`)
    await panel.getByRole('button', { name: 'Accept all' }).click()
    await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('Wrote the notes remotely.')
    expect(await readFile(join(project, 'notes.md'), 'utf8')).toBe('written on the remote\n')
    expect((await modelServer.recorded()).failures).toEqual([])
  } finally {
    await context.close()
    await child.stop()
    await sshd.close()
    await rm(work, { recursive: true, force: true })
  }
})

// The same form with the user's own transport command (no ssh): a second Sous started by `sh -c`.
test('Open remote project… through your own command: the tab has the name given, the file tree is the remote’s', async ({ host, modelServer, lazyChromium, viewport }) => {
  test.skip(host === 'electron', 'the browser host is enough: the form and the routing are the same code')
  const work = await realpath(await mkdtemp(join(tmpdir(), 'sous-e2e-remote-command-')))
  const project = join(work, 'project')
  await mkdir(project)
  await writeFile(join(project, 'BEHIND.md'), '# Behind a command\n')
  const localHome = await prepareAppHome(join(work, 'local-home'))
  const remoteHome = join(work, 'remote-home')
  await prepareAppHome(join(remoteHome, '.sous'))
  const { url, child } = await startServe(localHome, modelServer.url, {})
  const context = await (await lazyChromium()).newContext({ viewport })
  try {
    const app = await context.newPage()
    await app.goto(url)
    const command = await openPalette(app)
    await command.fill('Open remote project')
    await command.press('Enter')
    const form = app.getByRole('region', { name: 'Open remote project' })
    await form.getByRole('combobox', { name: 'Transport' }).selectOption({ label: 'Your own command' })
    await form.getByRole('textbox', { name: 'Transport command' }).fill(`env HOME=${remoteHome} SOUS_HOME=${join(remoteHome, '.sous')} SOUS_HOST_GRACE_MS=5000 ${process.execPath} ${join(root, 'bin', 'sous.js')}`)
    await form.getByRole('textbox', { name: 'Name' }).fill('pod')
    await form.getByRole('textbox', { name: 'Folder there' }).fill(project)
    await form.getByRole('button', { name: 'Open remote' }).click()
    await expect(app.getByRole('tab', { name: 'project (pod)' })).toBeVisible({ timeout: 30_000 })
    await expect(app.getByLabel('Current project')).toContainText(`ssh://pod${project}`)
    await expect(app.getByRole('tree', { name: 'Project files' }).getByRole('treeitem', { name: 'BEHIND.md' })).toBeVisible()
  } finally {
    await context.close()
    await child.stop()
    await rm(work, { recursive: true, force: true })
  }
})

/**
 * Opens the command palette on a page just loaded: the app mounts after the boot shell's first
 * paint, so a shortcut pressed before its listener is there is pressed again.
 */
async function openPalette(app: Page): Promise<Locator> {
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await expect(async () => {
    if (!(await command.isVisible())) await app.keyboard.press('Control+Shift+P')
    await expect(command).toBeVisible({ timeout: 1_000 })
  }).toPass()
  return command
}
