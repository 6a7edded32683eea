import type { WebSocketRoute } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

const opening = 'Hello from the scripted model.'
const closing = 'That is all for now.'
const filler = 'This sentence is here so the reply takes a while to stream. '

/**
 * Events that do not match the contract never reach the screen. The page's WebSocket to the real
 * `sous serve` is routed through the test, which passes everything on and can slip extra pushes in
 * between, exactly where a buggy or hostile host would put them.
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
      const found = /"sessionId":"([^"]+)"/.exec(String(message))
      sessionId ??= found?.[1]
      route.send(message)
    })
  })
  await app.reload()
  const push = (event: string, payload: unknown) => page?.send(JSON.stringify({ event, payload }))

  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: `${opening} ${filler.repeat(12)}${closing}` }] }, chunkSize: 6, delayMs: 40 },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Say hello')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const reply = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
  await expect(reply).toContainText(opening)
  expect(sessionId).toBeDefined()

  // Mid-stream: one event as the contract has it (it shows), one with a bad field (it must not).
  push('agent.event', { sessionId, agentId: 'main', type: 'text_delta', text: ' INJECTED-OK ' })
  push('agent.event', { sessionId, agentId: 7, type: 'text_delta', text: ' MALFORMED-TEXT ' })
  await expect(reply).toContainText(closing)
  await expect(reply).toContainText('INJECTED-OK')
  await expect(reply).not.toContainText('MALFORMED-TEXT')
  const notice = app.getByRole('alert').filter({ hasText: 'could not read' })
  await expect(notice).toContainText('an event this window could not read (agent.event)')

  // An approval whose diff preview lacks its new text: no card is drawn from it.
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
  await expect(notice).toContainText('2 events this window could not read (agent.event, approval.requested)')
  await expect(app.getByRole('region', { name: 'Approvals' })).toBeHidden()

  await notice.getByRole('button', { name: 'Dismiss the notice about unreadable events' }).click()
  await expect(notice).toBeHidden()
})
