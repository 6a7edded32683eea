import { describe, expect, it } from 'vitest'
import { withProject } from './open-list'

const project = (path: string, openedAt = 't1') => ({ path, name: path.slice(1), openedAt })

describe('withProject', () => {
  it('adds a new project at the end and refreshes one already open in place', () => {
    const open = [project('/a'), project('/b')]
    expect(withProject(open, project('/c')).map((p) => p.path)).toEqual(['/a', '/b', '/c'])
    expect(withProject(open, project('/a', 't2'))).toEqual([project('/a', 't2'), project('/b')])
  })
})
