import { describe, expect, it } from 'vitest'
import { openView, useOpenDialog } from './open-dialog'

describe('the open-view store', () => {
  it('holds one open dialog; a late close of another view leaves it open', () => {
    openView('settings')
    expect(useOpenDialog.getState().open).toBe('settings')
    openView('memory')
    expect(useOpenDialog.getState().open).toBe('memory')
    useOpenDialog.getState().closeView('settings')
    expect(useOpenDialog.getState().open).toBe('memory')
    useOpenDialog.getState().closeView('memory')
    expect(useOpenDialog.getState().open).toBeNull()
  })
})
