import { describe, expect, it } from 'vitest'
import { projectDataDir, projectSlug, sousHome } from './paths'

describe('paths', () => {
  it('honours SOUS_HOME', () => {
    expect(sousHome({ SOUS_HOME: '/tmp/sous-x' })).toBe('/tmp/sous-x')
  })
  it('slugs a project path into one folder name', () => {
    expect(projectSlug('/home/me/my app')).toBe('-home-me-my-app')
    expect(projectDataDir('/h', '/a/b')).toBe('/h/projects/-a-b')
  })
})
