import { describe, expect, it } from 'vitest'
import { openView, useViews } from './views'

describe('the open-view store', () => {
  it('holds one open dialog; a late close of another view leaves it open', () => {
    openView('settings')
    expect(useViews.getState().open).toBe('settings')
    openView('memory')
    expect(useViews.getState().open).toBe('memory')
    useViews.getState().closeView('settings')
    expect(useViews.getState().open).toBe('memory')
    useViews.getState().closeView('memory')
    expect(useViews.getState().open).toBeNull()
  })
})
