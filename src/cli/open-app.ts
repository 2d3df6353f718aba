/** Opens the composition root from a command's parsed options (the only way commands build a pipeline). */
import type { SettingsInput } from '../app/settings.js';
import { Veracite, type OpenOptions } from '../app/veracite.js';
import { settingsFrom, type OptionPick } from './options.js';

export function openApp(values: Record<string, unknown>, pick: OptionPick, opts: OpenOptions & { base?: SettingsInput } = {}): Promise<Veracite> {
  const { base, ...open } = opts;
  return Veracite.open(settingsFrom(values, pick, base), open);
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
