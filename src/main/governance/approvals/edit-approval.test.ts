import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionGrants } from '../decide/session'
import { decisionForEdit } from './edit-approval'
import { ApprovalQueue } from './queue'

const preview = { kind: 'diff' as const, filePath: '/p/a.txt', before: 'one\ntwo\nthree\n', after: 'ONE\ntwo\nTHREE\n' }

describe('decisionForEdit', () => {
  it('lets the model\'s own call run when the proposal was taken as is', () => {
    expect(decisionForEdit(preview, { finalContent: preview.after, hunks: ['accepted', 'accepted'] })).toEqual({ behavior: 'allow' })
  })

  it('writes exactly the approved text, with a note naming the hunks, for a partial approval', () => {
    const decision = decisionForEdit(preview, { finalContent: 'ONE\ntwo\nthree\n', hunks: ['accepted', 'rejected'] })
    expect(decision).toMatchObject({ behavior: 'allow', runAs: 'Write', updatedInput: { file_path: '/p/a.txt', content: 'ONE\ntwo\nthree\n' } })
    expect(decision.behavior === 'allow' && decision.userNote).toContain('Rejected and not applied: hunk 2 (line 3)')
  })

  it('quotes the user\'s edits, and refuses an edit without a diff or one that changes nothing', () => {
    const edited = decisionForEdit(preview, { finalContent: 'One!\ntwo\nTHREE\n', hunks: ['accepted', 'accepted'] })
    expect(edited.behavior === 'allow' && edited.userNote).toContain('+One!')
    expect(decisionForEdit(preview, { finalContent: preview.before, hunks: ['rejected', 'rejected'] })).toMatchObject({ behavior: 'deny' })
    expect(decisionForEdit({ kind: 'text', text: 'x' }, { finalContent: 'x', hunks: [] })).toMatchObject({ behavior: 'deny' })
  })
})

describe('ApprovalQueue with an edited approval', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('hands the approved content on with the allow', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sous-edit-approval-'))
    const queue = new ApprovalQueue({ projectRoot: dir, sousHome: dir, sessionGrants: new SessionGrants(dir) })
    const pending = queue.request({ toolName: 'Edit', input: {}, preview, explanation: { kind: 'default', detail: 'edits ask' } })
    const id = queue.pending()[0]!.id
    queue.resolve(id, { kind: 'allow_once', edit: { finalContent: 'x', hunks: ['accepted'] } })
    expect(await pending).toEqual({ behavior: 'allow', scope: 'once', rules: [], edit: { finalContent: 'x', hunks: ['accepted'] } })
  })
})
