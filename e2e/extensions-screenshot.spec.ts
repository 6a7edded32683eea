import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openTrusted } from './support/app'

/**
 * Not a test: renders the README's Extensions screenshot (a project MCP server connected, its
 * tools with what they cost, one turned off).
 *   SOUS_EXTENSIONS_SCREENSHOT=docs/extensions.png npx playwright test e2e/extensions-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_EXTENSIONS_SCREENSHOT
const fixtureServer = resolve(import.meta.dirname, '..', 'test', 'mcp', 'fixture-server.mjs')

test.skip(!target, 'Set SOUS_EXTENSIONS_SCREENSHOT=<file.png> to render the Extensions screenshot.')

test('extensions screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, '.claude', 'skills', 'release'), { recursive: true })
  await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixtureServer], env: { FIXTURE_STDERR: 'ready' } } } }, null, 2))
  await writeFile(join(project, '.claude', 'skills', 'release', 'SKILL.md'), '---\ndescription: Cut a release\n---\nBump the version.\n')
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Hello.' }] } }])
  await app.setViewportSize({ width: 1280, height: 860 })
  await openTrusted(app, project)
  const input = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await input.fill('Hello')
  await input.press('Enter')
  await expect(app.getByRole('region', { name: 'Chat' }).getByLabel('Assistant').last()).toContainText('Hello.')
  await input.fill('/mcp')
  await input.press('Enter')
  const server = app.getByRole('dialog', { name: 'Extensions' }).getByRole('article', { name: 'MCP server fixture' })
  await server.getByRole('button', { name: 'Approve and start' }).click()
  await expect(server.getByTestId('mcp-status-fixture')).toHaveText('Connected')
  await server.getByRole('checkbox', { name: 'Offer mcp__fixture__hang to the model', exact: true }).uncheck()
  await expect(server.getByRole('checkbox', { name: 'Offer mcp__fixture__hang to the model', exact: true })).not.toBeChecked()
  await app.mouse.move(0, 0)
  await app.screenshot({ path: resolve(target ?? 'extensions.png') })
})
