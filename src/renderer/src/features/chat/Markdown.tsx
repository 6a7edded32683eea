import { memo, useMemo } from 'react'
import { renderMarkdown, splitBlocks } from './markdown'
import 'highlight.js/styles/github-dark-dimmed.css'

/** One markdown block; memoised, so a finished block is parsed and rendered once. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text])
  return <div className="markdown__block" dangerouslySetInnerHTML={{ __html: html }} />
})

/**
 * Model text as markdown; `renderMarkdown` escapes raw HTML and unsafe links first. While the
 * text streams, only its last block changes, so only that block re-renders per frame.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text])
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} text={block} />
      ))}
    </div>
  )
})
