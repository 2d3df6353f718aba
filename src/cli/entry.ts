/** Process entry of the `veracite` command (bin/veracite.js loads the compiled copy). */
import { isModelsCommand } from './models-entry.js';

// `veracite models` starts without the other commands' modules (models-entry.ts).
if (isModelsCommand(process.argv)) await (await import('./models-entry.js')).modelsMain(process.argv);
else await (await import('./main.js')).main(process.argv);
