import { describe, expect, it } from 'vitest'
import { droppedPath, pathFromFileUri, type DropData } from './drop'

function drop(items: Record<string, string>, files: File[] = []): DropData {
  return { files, getData: (type) => items[type] ?? '' }
}
const nowhere = () => undefined

describe('droppedPath', () => {
  it('prefers a file the host can locate', () => {
    const file = new File([], 'app')
    expect(droppedPath(drop({ 'text/plain': '/other' }, [file]), () => '/home/me/app')).toBe('/home/me/app')
  })

  it('reads the first file URI of a uri-list, skipping comments', () => {
    const list = '# dropped\r\nhttps://example.com/\r\nfile:///home/me/my%20app\r\nfile:///x'
    expect(droppedPath(drop({ 'text/uri-list': list }), nowhere)).toBe('/home/me/my app')
  })

  it('accepts an absolute path or a file URI as plain text', () => {
    expect(droppedPath(drop({ 'text/plain': '  /srv/project \n' }), nowhere)).toBe('/srv/project')
    expect(droppedPath(drop({ 'text/plain': 'file:///srv/p' }), nowhere)).toBe('/srv/p')
    expect(droppedPath(drop({ 'text/plain': 'C:\\code\\app' }), nowhere)).toBe('C:\\code\\app')
  })

  it('returns undefined for drops without a path', () => {
    expect(droppedPath(drop({ 'text/plain': 'hello world' }), nowhere)).toBeUndefined()
    expect(droppedPath(drop({ 'text/uri-list': 'https://example.com/' }), nowhere)).toBeUndefined()
    expect(droppedPath(drop({}, [new File([], 'a')]), nowhere)).toBeUndefined()
  })

  it('survives a DataTransfer that throws for unknown types', () => {
    const throwing: DropData = {
      files: [],
      getData: (type) => {
        if (type === 'text/uri-list') throw new Error('nope')
        return '/ok'
      },
    }
    expect(droppedPath(throwing, nowhere)).toBe('/ok')
  })
})

describe('pathFromFileUri', () => {
  it('handles drive letters, UNC hosts and bad input', () => {
    expect(pathFromFileUri('file:///C:/Users/me')).toBe('C:/Users/me')
    expect(pathFromFileUri('file://server/share/x')).toBe('//server/share/x')
    expect(pathFromFileUri('file:///bad%E0%A4%A')).toBeUndefined()
    expect(pathFromFileUri('not a uri')).toBeUndefined()
  })
})
