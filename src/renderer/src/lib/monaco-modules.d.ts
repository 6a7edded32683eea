// Monaco's side-effect module that registers the basic languages' tokenizers ships without types.
declare module 'monaco-editor/basic-languages/monaco.contribution'
// Registers Monaco's codicon font (its stylesheet and the font file it names).
declare module 'monaco-editor/features/codicon/register'
