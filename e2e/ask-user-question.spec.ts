import { expect, test } from './fixtures'
import { openByPath } from './support/app'

// AskUserQuestion as the user meets it: a question card in the approvals panel, answered with the
// keyboard (one question) and by clicking (a multi-select with the user's own words), and the
// answers reach the model as the tool result in Claude Code's wording.

test('the agent asks two questions; the user answers by keyboard and by click, and the model gets the answers', async ({ app, projectDir, modelServer }) => {
  const questions = [
    { question: 'Which library should we use?', header: 'Library', multiSelect: false, options: [{ label: 'dayjs', description: 'Small and simple' }, { label: 'luxon', description: 'Time zones built in' }] },
    { question: 'Which features do you want?', header: 'Features', multiSelect: true, options: [{ label: 'Parsing', description: 'Read dates' }, { label: 'Locales', description: 'Many languages' }] },
  ]
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_ask', name: 'AskUserQuestion', input: { questions } }] } },
    { reply: { content: [{ type: 'text', text: 'Thanks, going with that.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Add date handling')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const card = app.getByRole('form', { name: 'Questions from the agent' })
  await expect(card.getByRole('group', { name: /Which library should we use\?/ })).toBeVisible()
  const send = card.getByRole('button', { name: 'Send answers' })
  await expect(send).toBeDisabled()

  // Keyboard: focus the first choice and pick the second with the arrow keys.
  await card.getByRole('radio', { name: 'dayjs' }).focus()
  await app.keyboard.press('ArrowDown')
  await expect(card.getByRole('radio', { name: 'luxon' })).toBeChecked()

  // Click: one option and an own answer.
  await card.getByRole('checkbox', { name: 'Parsing' }).click()
  await card.getByRole('textbox', { name: 'Your own answer to: Which features do you want?' }).fill('Durations')
  await expect(card.getByRole('checkbox', { name: 'Other answer to: Which features do you want?' })).toBeChecked()
  await send.click()

  await expect(chat.getByLabel('Assistant').last()).toContainText('Thanks, going with that.')
  await expect(card).toHaveCount(0)
  const record = await modelServer.recorded()
  // Find the request by what it answers, not by its place: a session of an earlier test on the same
  // server may still send a late request of its own.
  const answering = record.requests.find((request) => JSON.stringify(request.body['messages']).includes('"tool_use_id":"toolu_ask"'))
  expect(answering, 'a request carries the answers').toBeDefined()
  const messages = answering!.body['messages'] as Array<{ content: unknown }>
  const result = (messages.at(-1)!.content as Array<{ type: string; content: unknown }>).find((block) => block.type === 'tool_result')!
  expect(result.content).toBe(
    'The user answered: "Which library should we use?"="luxon", "Which features do you want?"="Parsing, Durations". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.',
  )
})
