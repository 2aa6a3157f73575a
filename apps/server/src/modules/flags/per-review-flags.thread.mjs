// The worker thread's entry: Node 20 cannot start a thread on a .ts file even under `--import tsx`, so this plain
// module registers tsx in the thread and then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./per-review-flags.worker.ts');
