// Monaco's side-effect module that registers the basic languages' tokenizers ships without types.
declare module 'monaco-editor/basic-languages/monaco.contribution'
