import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OPTIONAL_SYSTEM_TOOLS, pathWithout } from '../test/support/path-without'
import { expect, prepareAppHome, startServe, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * What a fresh machine and a long turn look like in the app: the sandbox banner when bubblewrap
 * is missing, the request guard that asks to go on, and the settings editor's hook warnings.
 */

// Each read starts at another line: twelve identical calls in a row would stop at the loop brake first.
const read = (file: string, offset: number) => ({ reply: { content: [{ type: 'tool_use', name: 'Read', input: { file_path: file, offset } }] } })

test('a turn at its request guard asks to go on, and goes on', async ({ app, projectDir, modelServer, sousHome }) => {
  const settingsFile = join(sousHome, 'settings.json')
  const before = await readFile(settingsFile, 'utf8').catch(() => undefined)
  const stored = before ? (JSON.parse(before) as Record<string, Record<string, unknown>>) : {}
  await writeFile(settingsFile, JSON.stringify({ ...stored, sous: { theme: 'system', fontSize: 13, ...stored['sous'], turnGuard: 10 } }))
  try {
    const readme = join(projectDir, 'README.md')
    await modelServer.setScenario([...Array.from({ length: 12 }, (_, index) => read(readme, index + 1)), { reply: { content: [{ type: 'text', text: 'Read it twelve times.' }] } }])
    await openByPath(app, projectDir)
    // The server keeps every request of this worker: count from here.
    const before = (await modelServer.recorded()).requests.length
    const chat = app.getByRole('region', { name: 'Chat' })
    await chat.getByRole('textbox', { name: 'Message' }).fill('Read the README a lot')
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
    const question = chat.getByRole('group', { name: 'Continue this turn?' })
    await expect(question).toContainText('10 model requests')
    expect((await modelServer.recorded()).requests.length - before).toBe(10)
    await question.getByRole('button', { name: 'Continue' }).click()
    const reply = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
    await expect(reply).toContainText('Read it twelve times.')
    await expect(question).toHaveCount(0)
    expect((await modelServer.recorded()).requests.length - before).toBe(13)
  } finally {
    if (before === undefined) await rm(settingsFile, { force: true })
    else await writeFile(settingsFile, before)
  }
})

test('without bubblewrap and socat, a banner says the sandbox is unavailable and why', async ({ browser, projectDir, modelServer }) => {
  const shadow = pathWithout(OPTIONAL_SYSTEM_TOOLS)
  const home = await prepareAppHome(await mkdtemp(join(tmpdir(), 'sous-e2e-fresh-home-')))
  const serve = await startServe(home, modelServer.url, { PATH: shadow.path })
  const context = await browser.newContext()
  try {
    await modelServer.setScenario([
      { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch made-here.txt' } }] } },
      { reply: { content: [{ type: 'text', text: 'Done.' }] } },
    ])
    const page = await context.newPage()
    await page.goto(serve.url)
    await openByPath(page, projectDir)
    const chat = page.getByRole('region', { name: 'Chat' })
    await chat.getByRole('textbox', { name: 'Message' }).fill('Make a file')
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
    const banner = chat.getByRole('region', { name: 'Sandbox unavailable' })
    await expect(banner).toContainText('The OS sandbox is unavailable')
    await expect(banner).toContainText(/bwrap|bubblewrap/)
    await expect(banner).toContainText('ask before they run')
    // The command asks (fail closed); rejecting it lets the turn finish.
    const approvals = page.getByRole('region', { name: 'Approvals' })
    await approvals.getByRole('button', { name: /^Reject/ }).first().click()
    await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('Done.')
    await banner.getByRole('button', { name: 'Dismiss' }).click()
    await expect(banner).toHaveCount(0)
  } finally {
    await context.close()
    await serve.child.stop()
    shadow.dispose()
    await rm(home, { recursive: true, force: true })
  }
})

test('the project settings editor lists hook events Sous does not fire', async ({ app, projectDir }) => {
  await openByPath(app, projectDir)
  await app.getByRole('button', { name: 'Settings' }).click()
  const settings = app.getByRole('dialog', { name: 'Settings' })
  const text = JSON.stringify({ hooks: { PostToolUse: [], TeammateIdle: [], PreTooluse: [] } }, null, 2)
  await settings.getByRole('textbox', { name: '.claude/settings.json' }).fill(text)
  await settings.getByRole('button', { name: 'Save .claude/settings.json' }).click()
  const warnings = settings.getByRole('list', { name: 'Settings warnings' })
  await expect(warnings.getByRole('listitem')).toHaveCount(2)
  await expect(warnings).toContainText('Sous does not fire the TeammateIdle hook event yet')
  await expect(warnings).toContainText('"PreTooluse" is not a hook event (did you mean PreToolUse?)')
})
