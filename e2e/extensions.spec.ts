import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openTrusted } from './support/app'

const fixtureServer = resolve(import.meta.dirname, '..', 'test', 'mcp', 'fixture-server.mjs')

/**
 * A project with Claude Code's files: `.mcp.json` running the stdio fixture server (its calls to
 * `crash` allowed), a skill folder without its SKILL.md (malformed) next to a good one, and a
 * UserPromptSubmit hook that prints a line.
 */
async function extendedProject(projectDir: string): Promise<void> {
  await writeFile(
    join(projectDir, '.mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixtureServer], env: { FIXTURE_STDERR: 'fixture says hello on stderr' } } } }),
  )
  await mkdir(join(projectDir, '.claude', 'skills', 'release'), { recursive: true })
  await writeFile(join(projectDir, '.claude', 'skills', 'release', 'SKILL.md'), '---\ndescription: Cut a release of this project\n---\nBump the version.\n')
  await mkdir(join(projectDir, '.claude', 'skills', 'broken'), { recursive: true })
  await writeFile(join(projectDir, '.claude', 'skills', 'broken', 'SKILL.md'), '---\ndescription: never closed\nBody without the closing line.\n')
  await writeFile(
    join(projectDir, '.claude', 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['mcp__fixture__crash'] },
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo prompt-hook-ran' }] }] },
    }),
  )
}

async function prompt(app: Page, text: string): Promise<void> {
  const input = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await input.fill(text)
  await input.press('Enter')
}

/** Opens the Extensions view with a slash command typed in the composer. */
async function slash(app: Page, command: string): Promise<void> {
  await prompt(app, command)
  await expect(app.getByRole('dialog', { name: 'Extensions' })).toBeVisible()
}

const text = (value: string) => ({ reply: { content: [{ type: 'text', text: value }] } })

test('the Extensions view: a project MCP server approved, its tools and their cost, a crash and a restart, a tool turned off, a malformed skill, the hook inspector', async ({
  app,
  projectDir,
  modelServer,
}) => {
  await extendedProject(projectDir)
  await modelServer.setScenario([
    text('Hello.'),
    { reply: { content: [{ type: 'tool_use', id: 'toolu_crash', name: 'mcp__fixture__crash', input: {} }] } },
    text('The server crashed.'),
    text('Third answer.'),
  ])
  await openTrusted(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  // The first prompt opens the session, which starts the project's servers.
  await prompt(app, 'Hello')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Hello.')

  await slash(app, '/mcp')
  const view = app.getByRole('dialog', { name: 'Extensions' })
  await expect(view.getByRole('tab', { name: 'MCP servers' })).toHaveAttribute('aria-selected', 'true')
  const server = view.getByRole('article', { name: 'MCP server fixture' })
  // A project's server runs only once approved, even in a trusted folder.
  await expect(server.getByTestId('mcp-status-fixture')).toHaveText('Waiting for your approval')
  await server.getByRole('button', { name: 'Approve and start' }).click()
  await expect(server.getByTestId('mcp-status-fixture')).toHaveText('Connected')
  const tools = server.getByRole('table', { name: 'Tools of fixture' })
  await expect(tools.getByRole('row', { name: /echo/ })).toContainText('read-only')
  const caption = await tools.locator('caption').textContent()
  const [, offered, total, cost] = /(\d+) of (\d+) tools offered to the model, ([\d,]+) tokens in every request/.exec(caption ?? '') ?? []
  expect(Number(offered)).toBeGreaterThan(5)
  expect(offered).toBe(total)
  expect(Number(cost?.replace(',', ''))).toBeGreaterThan(100)
  await server.getByText(/Log \(\d+ lines\)/).click()
  await expect(server.getByLabel('Log of fixture')).toContainText('fixture says hello on stderr')
  await view.getByRole('button', { name: 'Close' }).click()

  // The model calls the server's crash tool: the call fails, the server is reported failed with why.
  await prompt(app, 'Crash it')
  await expect(chat.getByLabel('Assistant').last()).toContainText('The server crashed.')
  await slash(app, '/mcp')
  await expect(server.getByTestId('mcp-status-fixture')).toHaveText('Failed')
  await expect(server).toContainText('fixture: crashing on purpose')
  await server.getByRole('button', { name: 'Restart' }).click()
  await expect(server.getByTestId('mcp-status-fixture')).toHaveText('Connected')

  // A tool turned off leaves the next request; the others stay.
  await server.getByRole('checkbox', { name: 'Offer mcp__fixture__add to the model', exact: true }).uncheck()
  await expect(server.getByRole('checkbox', { name: 'Offer mcp__fixture__add to the model', exact: true })).not.toBeChecked()
  await expect(tools.locator('caption')).toContainText(`${Number(total) - 1} of ${total} tools offered`)
  await view.getByRole('button', { name: 'Close' }).click()
  await prompt(app, 'Third')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Third answer.')
  const { requests } = await modelServer.recorded()
  const offeredTools = (requests.at(-1)?.body['tools'] as { name: string }[]).map((tool) => tool.name)
  expect(offeredTools).toContain('mcp__fixture__echo')
  expect(offeredTools).not.toContain('mcp__fixture__add')

  // Skills: the good one listed with where it comes from; the malformed one shown with its error.
  await slash(app, '/mcp')
  await view.getByRole('tab', { name: 'Skills' }).click()
  await expect(view.getByRole('listitem', { name: 'Skill release' })).toContainText('Cut a release of this project')
  await expect(view.getByRole('region', { name: 'Problems' })).toContainText('broken')
  await expect(view.getByRole('region', { name: 'Problems' })).toContainText('the frontmatter has no closing "---" line')
  await view.getByRole('button', { name: 'Close' }).click()

  // The hook inspector: the hook with its file, and its runs with exit code and output.
  await slash(app, '/hooks')
  await expect(view.getByRole('tab', { name: 'Hooks' })).toHaveAttribute('aria-selected', 'true')
  const configured = view.getByRole('region', { name: 'UserPromptSubmit hooks' })
  await expect(configured).toContainText('echo prompt-hook-ran')
  await expect(configured).toContainText('.claude/settings.json')
  const runs = view.getByRole('region', { name: 'Hook runs' }).getByRole('listitem', { name: 'Run of UserPromptSubmit hook' })
  await expect(runs).toHaveCount(3)
  await expect(runs.first()).toContainText('exit 0')
  await expect(runs.first().getByLabel('Output')).toHaveText('prompt-hook-ran\n')
})
