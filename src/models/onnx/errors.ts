/**
 * Every failure to load an ONNX model surfaces as a ModelLoadError so callers (CLI, server) can print
 * one actionable message instead of a transformers.js / onnxruntime stack trace.
 */
export type ModelLoadErrorCode =
  | 'folder-missing'
  | 'config-missing'
  | 'config-invalid'
  | 'tokenizer-missing'
  | 'onnx-missing'
  | 'onnx-invalid'
  | 'cuda-unavailable'
  | 'labels-unmapped'
  | 'remote-disabled'
  | 'load-failed';

export class ModelLoadError extends Error {
  readonly code: ModelLoadErrorCode;
  /** The file or folder the problem is about (also part of the message). */
  readonly path: string | undefined;

  constructor(code: ModelLoadErrorCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ModelLoadError';
    this.code = code;
    this.path = options.path;
  }
}

/** Short text of an unknown thrown value, for embedding in our own messages. */
export function describeError(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  // onnxruntime messages can be multi-line and very long; the first lines carry the reason.
  return text.split('\n').slice(0, 3).join(' ').slice(0, 500);
}
