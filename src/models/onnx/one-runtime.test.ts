/**
 * One onnxruntime in a process. veracite loads ONNX files through onnxruntime-node directly and through
 * @huggingface/transformers, which pins its own exact onnxruntime-node. When the two versions differ, npm
 * nests a second copy, and the two native libraries cannot load in one process: a fresh `npm install
 * veracite` (no lockfile: ^1.30.0 resolved to 1.31.1 beside transformers' 1.30.0) failed its first verify on
 * an index with vectors with ERR_DLOPEN_FAILED "version 'VERS_1.31.1' not found" (a developer's finding). So
 * both are pinned exactly, and onnxruntime-node to the version transformers pins.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const own = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const transformers = JSON.parse(readFileSync(new URL('../../../node_modules/@huggingface/transformers/package.json', import.meta.url), 'utf8')) as { version: string; dependencies: Record<string, string> };

describe('one onnxruntime-node in the dependency tree', () => {
  it('pins @huggingface/transformers exactly, and onnxruntime-node to the version it pins', () => {
    assert.equal(own.dependencies['@huggingface/transformers'], transformers.version, 'an exact transformers version (a newer one may pin another runtime)');
    assert.equal(own.dependencies['onnxruntime-node'], transformers.dependencies['onnxruntime-node']);
    assert.match(own.dependencies['onnxruntime-node']!, /^\d+\.\d+\.\d+$/);
  });
});
