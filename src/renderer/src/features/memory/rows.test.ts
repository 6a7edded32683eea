import { describe, expect, it } from 'vitest'
import type { MemoryDocument } from '../../../../shared/ipc/contract'
import { rowsFor, searchable } from './rows'

const memory = (scope: 'user' | 'project', file: string, name: string, type: string, extra: Partial<MemoryDocument> = {}): MemoryDocument => ({
  scope,
  file,
  path: `/m/${scope}/${file}`,
  name,
  description: `about ${name}`,
  type,
  body: `body of ${name}`,
  problems: [],
  updatedAt: 0,
  version: 'v',
  ...extra,
})

const list = searchable([
  memory('project', 'feedback_b.md', 'Use pnpm', 'feedback'),
  memory('project', 'feedback_a.md', 'Always run lint', 'feedback'),
  memory('user', 'user_role.md', 'Role', 'user', { body: 'Backend engineer, Go and Postgres' }),
  memory('project', 'notes.md', '', '', { problems: [{ field: 'file', message: 'no frontmatter' }] }),
])

describe('memory rows', () => {
  it('groups by scope, then type, then name; files with problems last; empty scopes still shown', () => {
    expect(rowsFor(list, '').map((row) => row.key)).toEqual([
      'scope:user',
      'type:user/user',
      'user/user_role.md',
      'scope:project',
      'type:project/feedback',
      'project/feedback_a.md',
      'project/feedback_b.md',
      'type:project/problems',
      'project/notes.md',
    ])
  })

  it('filters on every word, in name, description, file and body, without case', () => {
    expect(rowsFor(list, 'POSTGRES backend').filter((row) => row.kind === 'memory').map((row) => row.key)).toEqual(['user/user_role.md'])
    expect(rowsFor(list, 'pnpm').map((row) => row.key)).toEqual(['scope:user', 'scope:project', 'type:project/feedback', 'project/feedback_b.md'])
    expect(rowsFor(list, 'nothing matches').filter((row) => row.kind !== 'scope')).toEqual([])
  })
})
