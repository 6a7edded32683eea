import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * The "Add MCP server" form: a command that does not exist and a URL that is not http(s) are
 * refused with a clear message and nothing is written; a good server is written to the file the
 * user picked and listed at once.
 */
test('the Add MCP server form refuses bad input and writes a good server to .mcp.json', async ({ app, projectDir }) => {
  await app.setViewportSize({ width: 1280, height: 720 })
  await openByPath(app, projectDir)
  await app.keyboard.press('Alt+Shift+X')
  const view = app.getByRole('dialog', { name: 'Extensions' })
  await view.getByRole('button', { name: 'Add MCP server…' }).click()
  const form = view.getByRole('form', { name: 'Add MCP server' })
  // Nothing is wrong before anything was tried.
  await expect(form.getByRole('alert')).toHaveCount(0)

  await form.getByRole('textbox', { name: 'Name' }).fill('helper')
  await form.getByRole('textbox', { name: 'Command' }).fill('no-such-command-for-sous')
  await form.getByRole('button', { name: 'Add server' }).click()
  await expect(form.getByRole('alert')).toContainText('No such command: no-such-command-for-sous')
  await expect(stat(join(projectDir, '.mcp.json'))).rejects.toThrow()

  await form.getByRole('radio', { name: 'HTTP' }).check()
  await form.getByRole('textbox', { name: 'URL' }).fill('ftp://example.test/mcp')
  await form.getByRole('button', { name: 'Add server' }).click()
  await expect(form.getByRole('alert')).toHaveText('URL: an http:// or https:// address.')
  await expect(stat(join(projectDir, '.mcp.json'))).rejects.toThrow()

  await form.getByRole('radio', { name: 'Command (stdio)' }).check()
  await form.getByRole('textbox', { name: 'Command' }).fill('node')
  await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill('server.js\n--port 3000')
  await form.getByRole('button', { name: 'Add server' }).click()
  await expect(view.getByRole('status').filter({ hasText: 'Added to' })).toContainText(join(projectDir, '.mcp.json'))
  expect(JSON.parse(await readFile(join(projectDir, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { helper: { type: 'stdio', command: 'node', args: ['server.js', '--port 3000'] } } })
  await expect(view.getByRole('article', { name: 'MCP server helper' })).toBeVisible()
})
