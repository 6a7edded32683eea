import type { WebSocketRoute } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Events that do not match the contract never reach the screen. The page's WebSocket to the real
 * `sous serve` is routed through the test, which passes everything on and can slip extra pushes in
 * between, exactly where a buggy or hostile host would put them. The turn is held open by an
 * approval the test answers last, so the pushes land in a live turn whatever the machine's speed.
 */
test('a malformed event is reported and dropped, never rendered', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'Routes the browser host’s WebSocket.')
  let page: WebSocketRoute | undefined
  let sessionId: string | undefined
  await app.routeWebSocket(/\/ws$/, (route) => {
    page = route
    const server = route.connectToServer()
    route.onMessage((message) => server.send(message))
    server.onMessage((message) => {
      // This test's session is the one whose turn carries its prompt: the host is shared with the
      // specs before it, whose sessions may still send an event or two on this new connection.
      const found = /"sessionId":"([^"]+)"[^}]*"type":"turn_start"[^}]*"prompt":"Touch a file"/.exec(String(message))
      sessionId ??= found?.[1]
      route.send(message)
    })
  })
  await app.reload()
  const push = (event: string, payload: unknown) => page?.send(JSON.stringify({ event, payload }))

  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_held', name: 'Bash', input: { command: 'touch held.txt' } }] } },
    { reply: { content: [{ type: 'text', text: 'Understood, not touching it.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Touch a file')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByLabel('1 pending')).toBeVisible()
  expect(sessionId).toBeDefined()

  // While the turn waits: a forged approval whose diff preview lacks its new text, a delta with a
  // wrong field, then a delta as the contract has it. Pushes arrive in order, so once the last one
  // shows, the first two have been handled.
  push('approval.requested', {
    id: 'forged',
    sessionId,
    toolUseId: 'toolu_forged',
    toolName: 'Write',
    input: { file_path: `${projectDir}/x.txt`, content: 'x' },
    preview: { kind: 'diff', filePath: `${projectDir}/x.txt`, before: '' },
    explanation: { kind: 'default', text: 'writes ask' },
    suggestions: [],
  })
  push('agent.event', { sessionId, agentId: 7, type: 'text_delta', text: ' MALFORMED-TEXT ' })
  push('agent.event', { sessionId, agentId: 'main', type: 'text_delta', text: ' INJECTED-OK ' })
  const reply = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
  await expect(reply).toContainText('INJECTED-OK')
  await expect(reply).not.toContainText('MALFORMED-TEXT')
  await expect(panel.getByLabel('1 pending')).toBeVisible()
  await expect(panel.getByRole('list', { name: 'Queued approvals' })).toBeHidden()
  const notice = app.getByRole('alert').filter({ hasText: 'could not read' })
  await expect(notice).toContainText('2 events this window could not read (approval.requested, agent.event)')

  await panel.getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(reply).toContainText('Understood, not touching it.')
  await notice.getByRole('button', { name: 'Dismiss the notice about unreadable events' }).click()
  await expect(notice).toBeHidden()
})
