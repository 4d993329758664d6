/**
 * The embedded sandbox provider: an HTTP server on 127.0.0.1 that answers like the voice
 * notification service (spec sections 1–8), with scripted call outcomes, an optional signature
 * gateway and fault switches. Plain Node; used by the app's out-of-the-box mode, the CLI and tests.
 */

export { startSandbox } from './server';
export { DEMO_ACCOUNT, DEMO_TEMPLATES, DEFAULT_REVIEW_DELAY_MS, FREE_DEBUG_UNITS, type DemoTemplate } from './demo';
export { SIMULATION, scriptFor, talkSecondsFor, type CallScript, type AttemptOutcome } from './call-script';
export { parseFault } from './faults';
export { MAX_BODY_BYTES, XML_ROOTS } from './http-io';
export { MESSAGES, TALKING_LABEL } from './voice-service';
export { REDACTED } from './redact';
export { renderReceipts, renderReply, type ReceiptFacts } from './dialect-shape';
export type {
  CallScriptName,
  PushedReceipt,
  SandboxAccountSummary,
  SandboxSettings,
  ReceivedRequest,
  Sandbox,
  SandboxAccountInput,
  SandboxCall,
  SandboxCallEvent,
  SandboxFault,
  SandboxFaultKind,
  SandboxOp,
  SandboxOptions,
  SandboxSignatureMode,
  SandboxStats,
  SandboxTemplate,
} from './types';
