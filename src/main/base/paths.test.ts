import { describe, expect, it } from 'vitest'
import { projectDataDir, projectSlug, sousHome } from './paths'

describe('paths', () => {
  it('honours SOUS_HOME', () => {
    expect(sousHome({ SOUS_HOME: '/tmp/sous-x' })).toBe('/tmp/sous-x')
  })
  it('slugs a project path into one readable folder name', () => {
    expect(projectSlug('/home/me/my app')).toMatch(/^-home-me-my-app-[0-9a-f]{12}$/)
    expect(projectDataDir('/h', '/a/b')).toMatch(/^\/h\/projects\/-a-b-[0-9a-f]{12}$/)
    expect(projectSlug('/a/b/')).toBe(projectSlug('/a/b'))
  })
  it('gives paths that read the same different folders', () => {
    const names = ['/a-b', '/a/b', '/a b', '/a.b', '/a_b'].map(projectSlug)
    expect(new Set(names).size).toBe(names.length)
  })
  it('keeps very long paths within a folder-name limit', () => {
    expect(projectSlug(`/${'x'.repeat(5000)}`).length).toBeLessThan(255)
  })
})
