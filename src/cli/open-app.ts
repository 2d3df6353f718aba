/** Opens the composition root from a command's parsed options (the only way commands build a pipeline). */
import type { SettingsInput } from '../app/settings.js';
import type { OpenOptions, Veracite } from '../app/veracite.js';
import { settingsFrom, type OptionPick } from './options.js';

export async function openApp(values: Record<string, unknown>, pick: OptionPick, opts: OpenOptions & { base?: SettingsInput } = {}): Promise<Veracite> {
  const { base, ...open } = opts;
  // Loaded here, not at start-up: the composition root pulls in the stores and the models (issue 31).
  const { Veracite } = await import('../app/veracite.js');
  const vc = await Veracite.open(settingsFrom(values, pick, base), open);
  // Every command that reads an index says when the index's ingest has not finished (issue 45); the
  // writer (`index`, which opens with create) is the one finishing it.
  if (vc.store && !open.create) {
    try {
      const { unfinishedIngests, unfinishedNotice } = await import('../store/unfinished-ingest.js');
      const dir = vc.settings.index.dir;
      for (const line of unfinishedNotice(await unfinishedIngests(vc.store), dir ? ` --index ${JSON.stringify(dir)}` : '')) console.error(line);
    } catch (e) {
      await vc.close();
      throw e;
    }
  }
  return vc;
}

/** Runs `fn` with an open app and always closes it. */
export async function withApp<T>(values: Record<string, unknown>, pick: OptionPick, fn: (vc: Veracite) => Promise<T>, opts: OpenOptions & { base?: SettingsInput } = {}): Promise<T> {
  const vc = await openApp(values, pick, opts);
  try {
    return await fn(vc);
  } finally {
    await vc.close();
  }
}
