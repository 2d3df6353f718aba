/** Process entry of the `veracite` command (bin/veracite.js loads the compiled copy). */
import { isModelsCommand } from './models-entry.js';
import { installTerminalSafeOutput } from './terminal-safe.js';

// No control sequence from a page or an article reaches the terminal (terminal-safe.ts).
installTerminalSafeOutput();

// `veracite models` starts without the other commands' modules (models-entry.ts).
if (isModelsCommand(process.argv)) await (await import('./models-entry.js')).modelsMain(process.argv);
else await (await import('./main.js')).main(process.argv);
