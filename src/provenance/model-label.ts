/**
 * How a model is named to people: its id, and for a model whose version is a weights hash, the file and
 * the first 12 hex digits of its SHA-256 (`verifier (onnx/model_quantized.onnx sha256 1a2b3c4d5e6f)`), so a
 * printed result names the exact weights that judged it. The full version stays in the JSON provenance.
 */
import type { ModelInfo } from '../models/types.js';

/** The first 12 hex digits of a `sha256:` version, or undefined. */
export function weightsHash12(m: Pick<ModelInfo, 'version'>): string | undefined {
  return /^sha256:([0-9a-f]{12})/.exec(m.version)?.[1];
}

export function modelLabel(m: Pick<ModelInfo, 'id' | 'version' | 'file' | 'backend'>): string {
  const h = weightsHash12(m);
  if (!h || m.backend === 'profile' || m.id.includes(h)) return m.id;
  return `${m.id} (${m.file ? `${m.file} ` : ''}sha256 ${h})`;
}
