import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from './main.js';

function leaves(cmd: Command, path: string[] = []): { path: string; cmd: Command }[] {
  if (cmd.commands.length === 0) return [{ path: path.join(' '), cmd }];
  return cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

describe('veracite --help', () => {
  it('every command shows runnable examples that name the command itself', () => {
    const all = leaves(buildProgram());
    assert.ok(all.length >= 15, `${all.length} commands`);
    for (const { path, cmd } of all) {
      let help = '';
      cmd.configureOutput({ writeOut: (s) => (help += s) });
      cmd.outputHelp();
      assert.match(help, /\nExamples:\n/, `${path} --help has examples`);
      const examples = help.slice(help.indexOf('Examples:')).split('\n').filter((l) => l.trim().startsWith('$'));
      assert.ok(examples.length > 0 && examples.every((l) => l.includes(`veracite ${path}`)), `${path}: ${examples.join(' | ')}`);
      assert.doesNotMatch(help, /DEFAULT_[A-Z_]+/, `${path}: help names a code constant`);
    }
  });
});
