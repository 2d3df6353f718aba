import { toFloat16, fromFloat16 } from '../src/models/use/util.js';
const xs = new Float32Array(200000).map(() => (Math.random() - 0.5) * 2 ** (Math.random() * 30 - 25));
xs[0] = 0; xs[1] = -0.25; xs[2] = 65504; xs[3] = 1e-7; xs[4]=6.1e-5; xs[5]=0.0999;
const back = fromFloat16(toFloat16(xs));
let worst = 0; for (let i = 0; i < xs.length; i++) { const a = Math.abs(xs[i]); if (a > 6.2e-5 && a < 60000) worst = Math.max(worst, Math.abs(back[i] - xs[i]) / a); }
console.log('worst rel err normal range', worst, back.slice(0, 6));
