import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

  it('every shipped file a help text names exists (the first help screen once sent newcomers to a missing article)', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const texts: string[] = [];
    const collect = (cmd: Command) => {
      let help = '';
      cmd.configureOutput({ writeOut: (s) => (help += s) });
      cmd.outputHelp();
      texts.push(help);
      cmd.commands.forEach(collect);
    };
    collect(buildProgram());
    const named = [...new Set(texts.join('\n').match(/data\/samples\/[^\s"',)]+/g) ?? [])].map((p) => p.replace(/[.:;]+$/, ''));
    assert.ok(named.length >= 5, named.join(', '));
    assert.deepEqual(named.filter((p) => !existsSync(join(root, p))), [], 'named in --help but not shipped');
  });
});
