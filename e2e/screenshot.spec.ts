import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Not a test: renders the README's screenshot (project open, terminal output, a chat reply).
 *   SOUS_SCREENSHOT=docs/screenshot.png npx playwright test e2e/screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_SCREENSHOT

test.skip(!target, 'Set SOUS_SCREENSHOT=<file.png> to render the README screenshot.')

test('README screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const reply = [
    '**Pantry** is a small TypeScript project: a `README.md` and `src/index.ts`, which exports an empty `items` list. A few things you could do next:',
    '',
    '1. Add a `package.json` with a `test` script.',
    '2. Describe how to run it in the README.',
    '3. Set up CI so every push runs the tests.',
    '',
    'Want me to start with the `package.json`?',
  ].join('\n')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'thinking', thinking: 'The user wants an overview. I will look at the files first.', signature: 'sig' }, { type: 'text', text: reply }] }, chunkSize: 24 },
  ])
  // A project with a friendlier name and a few files than the bare temp folder.
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, 'src'), { recursive: true })
  await writeFile(join(project, 'README.md'), '# Pantry\n\nTrack what is in the kitchen.\n')
  await writeFile(join(project, 'src', 'index.ts'), 'export const items: string[] = []\n')
  await app.setViewportSize({ width: 1280, height: 760 })
  await openByPath(app, project)

  const terminal = app.getByRole('region', { name: 'Terminal' })
  await expect(terminal.getByRole('status')).toHaveText('Running')
  const shell = terminal.getByRole('tabpanel')
  await expect(shell.locator('.xterm-rows')).toContainText(/[#$%>]/) // The shell's prompt.
  await shell.locator('.xterm').click()
  await app.keyboard.type('ls -l README.md src')
  await app.keyboard.press('Enter')
  await expect(shell.locator('.xterm-rows')).toContainText('index.ts')

  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('What is in this project, and what should I do next?')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Usage')).toBeVisible()
  await app.mouse.move(0, 0)
  await app.screenshot({ path: resolve(target ?? 'screenshot.png') })
})
