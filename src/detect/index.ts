export * from './types';
export { TerminalDetector, CLASSIFY_INTERVAL } from './detector';
export type { DetectorOptions } from './detector';
export { agentFromCommandLine, agentFromProcess } from './commandLine';
export { COMPLETION_SHAPE, CODEX_COMPLETION, isCompletionLine } from './completion';
export { SIGNATURES, signatureOf, signatureIds } from './signatures';
export { Screen } from './screen';
