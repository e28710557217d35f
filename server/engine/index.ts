// The engine's one door. Pure TypeScript: no LSP, no VS Code, no process spawning, no I/O but loading the grammar.
export * from './types';
export { initParser as initEngine } from './syntax/parser';
export { EngineDocument, analyzeText } from './analyze';
export { INCLUDE } from './syntax/includes';
